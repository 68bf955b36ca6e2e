// "prox-fp": prox fixed-point iteration (Schindler et al. 2011, eq. 9-12, 25-26); see prox_fp.hpp.
#include "moreau/solvers/prox_fp.hpp"
#include "moreau/solvers/stop.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "moreau/ncp/blocks.hpp"
#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/first_order.hpp"

namespace moreau {

bool reject_invalid_problem(const char* solver, const Problem& p, Solution& sol) {
  std::string why = p.validate();
  if (why.empty() && p.D.num_blocks() != p.num_blocks())
    why = "D has " + std::to_string(p.D.num_blocks()) + " blocks, expected " +
          std::to_string(p.num_blocks());
  for (int i = 0; why.empty() && i < p.num_blocks(); ++i)
    if (p.D.block_size(i) != p.blocks[i].size || p.D.diagonal_entry(i) < 0)
      why = "D block " + std::to_string(i) + " does not match constraint block " +
            std::to_string(i) + " (size " + std::to_string(p.blocks[i].size) +
            ", diagonal entry required)";
  if (why.empty()) return false;
  sol.status = SolveStatus::Failed;
  sol.message = std::string(solver) + ": invalid problem: " + why;
  sol.lambda.setZero(p.nl > 0 ? p.nl : 0);
  return true;
}

namespace {
using RowMajorX = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct ProxFpWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::ProxFp;
  std::vector<double> r;     // per block: joints omega G^-1 (row-major), contacts (r_N, r_T)
  std::vector<int> r_start;  // per block
  GrowVec v, scratch, prev, prev2;
  Eigen::Matrix<double, 6, 1> vb;
};

// r-factors from the diagonal blocks of G = D + R (r_i = omega / G_ii, Schindler et al.'s r = m).
void compute_r(const Problem& p, double omega, double r_fixed, ProxFpWorkspace& w) {
  const int nbk = p.num_blocks();
  w.r_start.resize(nbk + 1);
  int total = 0;
  for (int i = 0; i < nbk; ++i) {
    w.r_start[i] = total;
    const ConstraintBlock& b = p.blocks[i];
    total += b.cone == ConeKind::Free ? b.size * b.size : (b.cone == ConeKind::Coulomb ? 2 : 1);
  }
  w.r_start[nbk] = total;
  w.r.resize(total);
  for (int i = 0; i < nbk; ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const int n = b.size;
    double* r = w.r.data() + w.r_start[i];
    Mat6 G = regularized_diagonal_block(p, i);
    if (b.cone == ConeKind::Free) {
      Eigen::Map<RowMajorX> out(r, n, n);
      if (r_fixed > 0.0) {
        out = r_fixed * RowMajorX::Identity(n, n);
        continue;
      }
      // regularized by 1e-12 max_k G_kk: redundant joint rows
      out = omega * block_diagonal_inverse(p, i, {1e-12, 1e-300, true}).topLeftCorner(n, n);
    } else if (b.cone == ConeKind::Orthant || b.cone == ConeKind::Box) {
      r[0] = r_fixed > 0.0 ? r_fixed : omega / G(0, 0);
    } else if (r_fixed > 0.0) {
      r[0] = r[1] = r_fixed;
    } else {
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> es;
      es.computeDirect(G.topLeftCorner<2, 2>(), Eigen::EigenvaluesOnly);
      r[0] = omega / G(2, 2);                                // r_N
      r[1] = omega / std::max(es.eigenvalues()[1], 1e-300);  // r_T
    }
  }
}

// The prox update of block i given its velocity v (eq. 25-26 generalized); normal first, and in
// Gauss-Seidel mode the tangential velocity sees the new normal impulse.
void update_block(const Problem& p, int i, const double* r, bool gs, Eigen::Ref<VecX> v,
                  VecRef lam) {
  const ConstraintBlock& b = p.blocks[i];
  const int n = b.size, o = b.offset;
  switch (b.cone) {
    case ConeKind::Free:
      lam.segment(o, n).noalias() -= Eigen::Map<const RowMajorX>(r, n, n) * v;
      break;
    case ConeKind::Orthant:
      lam[o] = project_orthant(lam[o] - r[0] * v[0]);
      break;
    case ConeKind::Box:
      lam[o] = project_box(lam[o] - r[0] * v[0], b.bound);
      break;
    case ConeKind::Coulomb: {
      const double ln_old = lam[o + 2];
      const double ln = project_orthant(ln_old - r[0] * v[2]);  // prox_{R+} (eq. 11)
      lam[o + 2] = ln;
      double vt0 = v[0], vt1 = v[1];
      if (gs) {  // interleave: v_T += G_Tn (lambda_N^new - lambda_N^old)
        auto G = p.D.diagonal(i);
        vt0 += G(0, 2) * (ln - ln_old);
        vt1 += G(1, 2) * (ln - ln_old);
      }
      const Eigen::Vector2d a(lam[o] - r[1] * vt0, lam[o + 1] - r[1] * vt1);
      lam.segment<2>(o) = project_disk(a, b.mu * ln);  // prox of the disk (eq. 12)
      break;
    }
  }
}

void gauss_seidel_sweep(const Problem& p, ProxFpWorkspace& w, VecRef lam) {
  const bool has_r = p.R.size() == p.nl;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    auto v = w.vb.head(b.size);
    v = p.v_f.segment(b.offset, b.size);
    p.D.multiply_row_add(i, lam.data(), w.vb.data());  // v_i = (D lambda + v_f)_i (eq. 13)
    if (has_r)
      v.array() += p.R.segment(b.offset, b.size).array() * lam.segment(b.offset, b.size).array();
    update_block(p, i, w.r.data() + w.r_start[i], true, v, lam);
  }
}

void jacobi_sweep(const Problem& p, ProxFpWorkspace& w, VecRef lam) {
  first_order::multiply_regularized(p, lam, w.v);
  w.v += p.v_f;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    update_block(p, i, w.r.data() + w.r_start[i], false, w.v.segment(b.offset, b.size), lam);
  }
}

double natural_map(const Problem& p, const VecCRef& lam, ProxFpWorkspace& w) {
  first_order::multiply_regularized(p, lam, w.v);
  w.v += p.v_f;
  return ncp_residuals(p, lam, w.v, true, w.scratch).natmap;
}
}  // namespace

void prox_fp_sweeps(const Problem& p, VecRef lambda, int sweeps, SolverWorkspace& ws) {
  auto& w = ws.get<ProxFpWorkspace>();
  compute_r(p, 1.0, 0.0, w);
  for (int k = 0; k < sweeps; ++k) gauss_seidel_sweep(p, w, lambda);
}

void solve_prox_fp(const Problem& p, const SolverSettings& st, const WarmStart& warm,
                   SolverWorkspace& ws, Solution& sol) {
  if (reject_invalid_problem("prox-fp", p, sol)) return;
  auto& w = ws.get<ProxFpWorkspace>();
  const double omega = st.prox_fp.omega, r_fixed = st.prox_fp.r;
  const bool jacobi = st.prox_fp.jacobi;
  const double diverge = st.prox_fp.diverge_factor;
  compute_r(p, omega, r_fixed, w);
  GrowVec& lam = sol.lambda;
  if (warm.empty())
    lam.setZero(p.nl);
  else
    lam = warm.lambda;
  w.v.resize(p.nl);
  w.prev.resize(p.nl);
  w.prev2.resize(p.nl);
  const double res0 = natural_map(p, lam, w);
  const double bound = diverge * std::max(res0, 1e-300);
  sol.residual = res0;
  sol.status = res0 <= st.tol ? SolveStatus::Converged : SolveStatus::MaxIterations;
  for (int it = 0; it < st.max_iters && sol.status == SolveStatus::MaxIterations; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    w.prev2.swap(w.prev);
    w.prev = lam;
    if (jacobi)
      jacobi_sweep(p, w, lam);
    else
      gauss_seidel_sweep(p, w, lam);
    const double res = natural_map(p, lam, w);  // eq. 163
    sol.iterations = it + 1;
    sol.residual = res;
    if (st.trace) sol.trace.push_back(res);
    if (res <= st.tol) {
      sol.status = SolveStatus::Converged;
    } else if (!(res <= bound)) {  // also catches NaN
      sol.status = SolveStatus::Diverged;
      sol.message = "prox-fp diverged at iteration " + std::to_string(it + 1) + ": natural map " +
                    std::to_string(res) + " (initial " + std::to_string(res0) +
                    "); r too large, or no solution exists (Schindler et al. Sec. V)";
    } else if (it >= 2) {
      // Period-2 cycle: lambda^k = lambda^{k-2} != lambda^{k-1} (r > 2/G; Schindler et al. V-A).
      const double scale = std::max(1e-300, lam.cwiseAbs().maxCoeff());
      if ((lam - w.prev2).cwiseAbs().maxCoeff() <= 1e-14 * scale &&
          (lam - w.prev).cwiseAbs().maxCoeff() > 1e-8 * scale) {
        sol.status = SolveStatus::Failed;
        sol.message = "prox-fp iterates cycle with period 2 at iteration " +
                      std::to_string(it + 1) + " (r too large: use omega < 2)";
      }
    }
  }
}

}  // namespace moreau
