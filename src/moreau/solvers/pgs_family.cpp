#include "moreau/solvers/pgs_family.hpp"
#include "moreau/solvers/stop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "moreau/ncp/blocks.hpp"
#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/local_mdp.hpp"
#include "moreau/solvers/local_solvers.hpp"

namespace moreau {

namespace {

// Exact: the local Coulomb law (Alg. 4, slip angle from a quartic); MdpQuartic / MdpBisection:
// the local QCP of eq. 152 (NBGS's P_MDP, RAISIM's P_BS; solvers/local_mdp.hpp).
enum class LocalKind : uint8_t { Ccp, Ncp, Exact, MdpQuartic, MdpBisection };
struct Variant {
  LocalKind local;
  bool de_saxce;    // local De Saxce estimate s_k = Gamma(v_k) (Alg. 5 line 16)
  bool early_stop;  // stop on r_f (eq. 160) instead of the residuals (156)-(158)
};

struct PgsWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Pgs;
  std::vector<double> diag;  // per block: (D + R)_ii, row-major size^2
  std::vector<double> inv;   // per block: its regularized inverse
  std::vector<int> start;    // offset of block i in diag / inv
  GrowVec v, scratch;        // full velocity and residual scratch (nl)
};

using RowMap =
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

// (D + R)_ii and its inverse for every block; zero blocks get a zero inverse (the row is inert).
void prepare_blocks(const Problem& p, double rel, PgsWorkspace& w) {
  const int nbk = p.num_blocks();
  w.start.resize(nbk + 1);
  int total = 0;
  for (int i = 0; i < nbk; ++i) {
    w.start[i] = total;
    total += p.blocks[i].size * p.blocks[i].size;
  }
  w.start[nbk] = total;
  w.diag.resize(total);
  for (int i = 0; i < nbk; ++i) {
    const int n = p.blocks[i].size;
    const Mat6 A = regularized_diagonal_block(p, i);
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < n; ++c) w.diag[w.start[i] + a * n + c] = A(a, c);
  }
  // Regularized by rel * max_k |A_kk| for singular blocks; a zero block gets a zero inverse.
  block_diagonal_inverses(p, {rel, 0.0, true}, w.inv, w.start);
}

// y = v_f,i + sum_j D_ij x_j over the stored blocks of row i, + R_i x_i. Contact rows of 3x3
// blocks accumulate in registers (y may alias nothing the compiler can prove).
void block_velocity(const Problem& p, int i, const double* x, double* y) {
  const BlockSparse& D = p.D;
  const int si = D.block_size(i), oi = D.block_offset(i);
  if (si == 3) {
    double y0 = p.v_f[oi], y1 = p.v_f[oi + 1], y2 = p.v_f[oi + 2];
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const int j = D.entry_col(e), sj = D.block_size(j);
      const double* B = D.entry(e).data();
      const double* xj = x + D.block_offset(j);
      if (sj == 3) {
        y0 += B[0] * xj[0] + B[1] * xj[1] + B[2] * xj[2];
        y1 += B[3] * xj[0] + B[4] * xj[1] + B[5] * xj[2];
        y2 += B[6] * xj[0] + B[7] * xj[1] + B[8] * xj[2];
      } else {
        for (int c = 0; c < sj; ++c) {
          y0 += B[c] * xj[c];
          y1 += B[sj + c] * xj[c];
          y2 += B[2 * sj + c] * xj[c];
        }
      }
    }
    y[0] = y0;
    y[1] = y1;
    y[2] = y2;
  } else {
    for (int a = 0; a < si; ++a) y[a] = p.v_f[oi + a];
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const int j = D.entry_col(e), sj = D.block_size(j);
      const double* B = D.entry(e).data();
      const double* xj = x + D.block_offset(j);
      for (int a = 0; a < si; ++a)
        for (int c = 0; c < sj; ++c) y[a] += B[a * sj + c] * xj[c];
    }
  }
  if (p.R.size() == p.nl)
    for (int a = 0; a < si; ++a) y[a] += p.R[oi + a] * x[oi + a];
}

// The local contact update of Alg. 5 lines 15-17 (before SOR); counts the local solver's
// fallbacks (MdpQuartic: no root of the quartic accepted).
Vec3 contact_update(const Variant& var, const Vec3& lam, const Vec3& v, const Mat3& G,
                    const Mat3& Ginv, double mu, int& fallbacks) {
  const Vec3 s = var.de_saxce ? de_saxce(v, mu) : Vec3::Zero();  // line 16
  switch (var.local) {
    case LocalKind::Ccp:  // z = G lambda + b + s = v + s (Alg. 2 line 1)
      return local::ccp_step(lam, v + s, G, mu);
    case LocalKind::Ncp:  // Alg. 3 line 1
      return local::ncp_step(lam, v + s, G, mu);
    case LocalKind::Exact: {
      const Vec3 b = v - G * lam;  // local free velocity: v_k without the block's own term
      return local::exact(G, Ginv, b + s, mu, local::Law::Coulomb, local::Slip::Quartic, lam)
          .lambda;
    }
    case LocalKind::MdpQuartic:
    case LocalKind::MdpBisection: {
      const Vec3 b = v - G * lam;
      const local::Qcp m =
          var.local == LocalKind::MdpQuartic ? local::Qcp::Quartic : local::Qcp::Bisection;
      const local::MdpResult r = local::mdp(G, Ginv, b, s, mu, m, lam);
      fallbacks += r.fallback ? 1 : 0;
      return r.lambda;
    }
  }
  return lam;
}

struct SweepStats {
  double change = 0.0;     // max_i ||(D + R)_ii dlambda_i||_inf: velocity change of the sweep
  double objective = 0.0;  // exact change of f(lambda) = 1/2 l^T (D + R) l + l^T v_f (eq. 17a)
  int fallbacks = 0;       // local solves that fell back (see contact_update)
};

using Mat3Row = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>;

// One contact block: local solve, SOR, statistics (Alg. 5 lines 15-18).
inline void contact_block(const Variant& var, double omega, double mu, const double* Gp,
                          const double* Gip, const double* v, double* li, SweepStats& st) {
  const Mat3 G = Mat3Row(Gp);
  const Vec3 l0(li[0], li[1], li[2]), vv(v[0], v[1], v[2]);
  const Vec3 loc = contact_update(var, l0, vv, G, Mat3Row(Gip), mu, st.fallbacks);
  Vec3 x = omega * loc + (1.0 - omega) * l0;
  if (omega > 1.0) x = project_coulomb(x, mu);  // over-relaxation may leave K
  li[0] = x[0];
  li[1] = x[1];
  li[2] = x[2];
  const Vec3 d = x - l0, gd = G * d;
  st.change = std::max(st.change, gd.cwiseAbs().maxCoeff());
  st.objective += d.dot(vv + 0.5 * gd);  // f(l + d) - f(l), exact
}

// One Gauss-Seidel / SOR sweep over all blocks (Alg. 5 lines 3-18).
SweepStats sweep(const Problem& p, const Variant& var, double omega, const PgsWorkspace& w,
                 GrowVec& lam) {
  SweepStats st;
  double v[6], old[6], d[6];
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const int n = b.size;
    double* li = lam.data() + b.offset;
    block_velocity(p, i, lam.data(), v);  // line 4/9/15: v_i with the latest lambda
    for (int a = 0; a < n; ++a) old[a] = li[a];
    const RowMap A(w.diag.data() + w.start[i], n, n), Ainv(w.inv.data() + w.start[i], n, n);
    switch (b.cone) {
      case ConeKind::Free:  // lines 5-6: exact block solve, then SOR
        for (int a = 0; a < n; ++a) {
          double x = 0.0;
          for (int c = 0; c < n; ++c) x += Ainv(a, c) * v[c];
          li[a] = old[a] - omega * x;
        }
        break;
      case ConeKind::Orthant: {  // lines 10-12
        const double loc = project_orthant(old[0] - Ainv(0, 0) * v[0]);
        li[0] = project_orthant(omega * loc + (1.0 - omega) * old[0]);
        break;
      }
      case ConeKind::Box: {  // the orthant's lines with the interval
        const double loc = project_box(old[0] - Ainv(0, 0) * v[0], b.bound);
        li[0] = project_box(omega * loc + (1.0 - omega) * old[0], b.bound);
        break;
      }
      case ConeKind::Coulomb:  // lines 15-18, fixed-size
        contact_block(var, omega, b.mu, w.diag.data() + w.start[i], w.inv.data() + w.start[i], v,
                      li, st);
        continue;
    }
    for (int a = 0; a < n; ++a) d[a] = li[a] - old[a];
    for (int a = 0; a < n; ++a) {
      double gd = 0.0;
      for (int c = 0; c < n; ++c) gd += A(a, c) * d[c];
      st.change = std::max(st.change, std::abs(gd));
      st.objective += d[a] * (v[a] + 0.5 * gd);  // f(l + d) - f(l), exact
    }
  }
  return st;
}

// I_total of eq. 160: sum of the diagonal of M, or (no primal view) the sum over rows of the
// effective masses 1 / (D + R)_kk.
double total_inertia(const Problem& p, const PgsWorkspace& w) {
  double sum = 0.0;
  if (p.num_bodies > 0 && static_cast<int>(p.M.size()) == p.num_bodies) {
    for (const Mat6& M : p.M) sum += M.trace();
  } else {
    for (int i = 0; i < p.num_blocks(); ++i) {
      const int n = p.blocks[i].size;
      for (int k = 0; k < n; ++k) {
        const double dk = w.diag[w.start[i] + k * n + k];
        if (dk > 0.0) sum += 1.0 / dk;
      }
    }
  }
  return sum > 0.0 ? sum : 1.0;
}

// The largest eigenvalue of any diagonal block (D + R)_ii, bounded above by its largest absolute
// row sum (Gershgorin): the stiffest local direction. Zero for an all-zero D.
double largest_block_eigenvalue(const Problem& p, const PgsWorkspace& w) {
  double L = 0.0;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const int n = p.blocks[i].size;
    for (int a = 0; a < n; ++a) {
      double row = 0.0;
      for (int c = 0; c < n; ++c) row += std::abs(w.diag[w.start[i] + a * n + c]);
      L = std::max(L, row);
    }
  }
  return L;
}

constexpr double kRoundoff = 1e-14;  // relative rounding level of f below which r_f is noise

// The plateau level of eq. 160 for a velocity tolerance es_tol. A Gauss-Seidel sweep lowers
// f = 1/2 l^T (D + R) l + l^T v_f by sum_i 1/2 dl_i^T G_i dl_i = sum_i 1/2 dv_i^T G_i^-1 dv_i
// (exact block minimization, G_i = (D + R)_ii, dv_i = G_i dl_i the block's velocity change),
// which is at least |dv_i|^2 / (2 L) for every block (L >= lambda_max(G_i)). So
// |f(l^i) - f(l^(i-1))| <= es_tol^2 / (2 L) bounds every block's velocity change in the sweep by
// es_tol; divided by I_total it is a level for r_f, in the units of r_f (energy per mass).
double plateau_level(double es_tol, double L, double inertia) {
  return L > 0.0 ? es_tol * es_tol / (2.0 * L * inertia) : 0.0;
}

// f(lambda) = 1/2 l^T (D + R) l + l^T v_f (eq. 17a), one product with D.
double objective(const Problem& p, const VecCRef& lam, PgsWorkspace& w) {
  p.D.multiply(lam.data(), w.v.data());
  if (p.R.size() == p.nl) w.v.array() += p.R.array() * lam.array();
  return lam.dot(0.5 * w.v + p.v_f);
}

// The stopping residual from the common code: max(natmap, dual, primal, compl / max(1, |l|)).
double full_residual(const Problem& p, const VecCRef& lam, bool ncp, PgsWorkspace& w) {
  p.D.multiply(lam.data(), w.v.data());
  w.v += p.v_f;
  if (p.R.size() == p.nl) w.v.array() += p.R.array() * lam.array();
  const NcpResiduals r = ncp_residuals(p, lam, w.v, ncp, w.scratch);
  const double scale = std::max(1.0, lam.size() ? lam.cwiseAbs().maxCoeff() : 0.0);
  return std::max({r.natmap, r.dual, r.primal, r.compl_ / scale});
}

void run(const Problem& p, const SolverSettings& s, const WarmStart& warm, SolverWorkspace& ws,
         Solution& sol, const Variant& var) {
  // Parameters (docs/solvers.md), all read here.
  double omega = s.pgs.omega;
  const double omega_min = s.pgs.omega_min.value_or(omega), decay = s.pgs.omega_decay;
  const int check_every = std::max(1, s.pgs.check_every);
  const double blowup = s.pgs.blowup, es_tol = s.pgs.es_tol.value_or(s.tol);

  const auto t_setup = std::chrono::steady_clock::now();
  auto& w = ws.get<PgsWorkspace>();
  prepare_blocks(p, s.pgs.regularization, w);
  w.v.resize(p.nl);
  w.scratch.resize(p.nl);
  GrowVec& lam = sol.lambda;
  if (warm.empty())
    lam.setZero(p.nl);
  else
    lam = warm.lambda;
  const bool ncp = !(var.local == LocalKind::Ccp && !var.de_saxce);  // which residual (eq. 163/164)
  const double inertia = var.early_stop ? total_inertia(p, w) : 1.0;
  const double es_level =
      var.early_stop ? plateau_level(es_tol, largest_block_eigenvalue(p, w), inertia) : 0.0;
  // f(lambda^i), followed through the exact changes of the sweeps (0 for a cold start): a change
  // at the rounding level of f is a plateau too, whatever es_tol asks for.
  double f = var.early_stop && !warm.empty() ? objective(p, lam, w) : 0.0;
  if (s.trace) sol.trace.reserve(s.max_iters);
  sol.status = SolveStatus::MaxIterations;
  double first = -1.0, res = INFINITY;
  sol.setup_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_setup).count();
  for (int it = 1; it <= s.max_iters; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    const SweepStats st = sweep(p, var, omega, w, lam);
    omega = omega_min + decay * (omega - omega_min);  // Alg. 5 line 25
    sol.iterations = it;
    sol.fallbacks += st.fallbacks;
    if (!std::isfinite(st.change) || !std::isfinite(st.objective)) {
      sol.status = SolveStatus::Diverged;
      sol.message = "non-finite iterate";
      break;
    }
    const bool check = s.trace || st.change <= s.tol || it % check_every == 0 || it == s.max_iters;
    if (var.early_stop) {
      res = std::abs(st.objective) / inertia;  // r_f (eq. 160)
      f += st.objective;
      if (s.trace) sol.trace.push_back(res);
      if (res <= std::max(es_level, kRoundoff * std::abs(f) / inertia)) {
        sol.status = SolveStatus::Converged;
        break;
      }
      continue;
    }
    if (!check) continue;
    res = full_residual(p, lam, ncp, w);
    if (s.trace) sol.trace.push_back(res);
    if (first < 0.0) first = res;
    if (!std::isfinite(res) || res > blowup * std::max(first, s.tol)) {
      sol.status = SolveStatus::Diverged;
      sol.message = "residual blew up";
      break;
    }
    if (res <= s.tol) {
      sol.status = SolveStatus::Converged;
      break;
    }
  }
  sol.residual = res;
}

}  // namespace

void solve_pgs_ccp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                   SolverWorkspace& ws, Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::Ccp, s.pgs.de_saxce, false});
}
void solve_pgs_ncp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                   SolverWorkspace& ws, Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::Ncp, false, false});
}
void solve_nbgs(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::MdpQuartic, false, false});
}
void solve_nbgs_exact(const Problem& p, const SolverSettings& s, const WarmStart& w,
                      SolverWorkspace& ws, Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::Exact, false, false});
}
void solve_raisim(const Problem& p, const SolverSettings& s, const WarmStart& w,
                  SolverWorkspace& ws, Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::MdpBisection, false, false});
}
void solve_raisim_ds(const Problem& p, const SolverSettings& s, const WarmStart& w,
                     SolverWorkspace& ws, Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::MdpBisection, true, false});
}
void solve_raisim_ds_es(const Problem& p, const SolverSettings& s, const WarmStart& w,
                        SolverWorkspace& ws, Solution& sol) {
  run(p, s, w, ws, sol, {LocalKind::MdpBisection, true, true});
}

}  // namespace moreau
