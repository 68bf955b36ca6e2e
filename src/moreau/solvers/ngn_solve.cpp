// ngn: the Levenberg-Marquardt / dogleg loop of Todorov (ICRA 2010, Sec. III-A to III-F,
// eq. 19-28). Per pass: r(x); stop when ||r||_inf <= tol; J with active-edge blends; restricted
// Newton point x_N = x - B (B^T H B)^-1 B^T g (H = J^T J + lambda I); accept it when the actual
// decrease of 1/2 |r|^2 is at least half the predicted one (lambda /= nu), otherwise lambda *= nu
// and take the best point of the edge-aware line searches on x -> x_C and x_C -> x_N.
#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/ngn_internal.hpp"
#include "moreau/solvers/prox_fp.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {
namespace ngn {

namespace {
struct Params {
  double eps, nu, accept;
  int refine, restarts;
  bool warm;
};

// x0: warm start x = v - lambda with v = A lambda + v_f, or all-stick x = A^+ v_f (Todorov III-F).
void initial_point(const Problem& p, const WarmStart& warm, bool use_warm, Workspace& w) {
  if (use_warm && !warm.empty()) {
    w.x.noalias() = w.Am * warm.lambda;  // (A - I) lambda
    w.x += p.v_f;
    return;
  }
  w.cod.setThreshold(1e-12);
  w.Am.diagonal().array() += 1.0;
  w.cod.compute(w.Am);
  w.Am.diagonal().array() -= 1.0;
  w.x = w.cod.solve(p.v_f);  // all stick: v = 0, f = -A^+ v_f, x = v - f
}

// J = (A - I) F' - I block column by block column, then J B.
void assemble(const Problem& p, Workspace& w) {
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const int c = b.offset;
    if (b.cone == ConeKind::Coulomb)
      w.J.middleCols<3>(c).noalias() = w.Am.middleCols<3>(c) * w.blocks[k].F;
    else if (b.cone == ConeKind::Orthant)
      w.J.col(c) = w.Am.col(c) * w.blocks[k].F(0, 0);
    else
      w.J.middleCols(c, b.size) = -w.Am.middleCols(c, b.size);
  }
  w.J.diagonal().array() -= 1.0;
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const BlockState& bs = w.blocks[k];
    if (bs.ncols == 0) continue;
    if (b.cone == ConeKind::Coulomb)
      w.JB.middleCols(bs.col, bs.ncols).noalias() =
          w.J.middleCols<3>(b.offset) * bs.basis.leftCols(bs.ncols);
    else
      w.JB.middleCols(bs.col, bs.ncols) = w.J.middleCols(b.offset, bs.ncols);
  }
}

// out = B vB (n entries) and the cone-edge projection of x - out on active cone blocks.
void expand(const Problem& p, const Workspace& w, const VecX& vB, VecX& out) {
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const BlockState& bs = w.blocks[k];
    if (b.cone == ConeKind::Coulomb)
      out.segment<3>(b.offset).noalias() =
          bs.basis.leftCols(bs.ncols) * vB.segment(bs.col, bs.ncols);
    else if (bs.ncols == 0)
      out[b.offset] = 0.0;
    else
      out.segment(b.offset, b.size) = vB.segment(bs.col, b.size);
  }
}

void project_active_cones(const Problem& p, const Workspace& w, VecX& x) {
  for (size_t k = 0; k < p.blocks.size(); ++k)
    if (w.blocks[k].cone_active)
      x.segment<3>(p.blocks[k].offset) =
          project_cone_edge(x.segment<3>(p.blocks[k].offset), p.blocks[k].mu);
}

// Restricted Newton point (28): x_N = x - B (B^T H B)^-1 B^T g; false if H is not SPD.
bool newton_point(const Problem& p, int m, double lm, Workspace& w) {
  auto H = w.HB.topLeftCorner(m, m);
  H.noalias() = w.JB.leftCols(m).transpose() * w.JB.leftCols(m);
  H.diagonal().array() += lm;
  Eigen::Ref<MatX> Href(H);
  Eigen::LLT<Eigen::Ref<MatX>> llt(Href);
  if (llt.info() != Eigen::Success) return false;
  auto step = w.stepB.head(m);
  step = w.gB.head(m);
  llt.solveInPlace(step);
  expand(p, w, w.stepB, w.dx);
  w.xN = w.x - w.dx;
  project_active_cones(p, w, w.xN);
  return w.xN.allFinite();
}

// Restricted Cauchy point (28): x_C = x - B g_B |g_B|^2 / (g_B^T (J_B^T J_B + lambda I) g_B).
void cauchy_point(const Problem& p, int m, double lm, Workspace& w) {
  const double gg = w.gB.head(m).squaredNorm();
  w.Jeps.noalias() = w.JB.leftCols(m) * w.gB.head(m);
  const double den = w.Jeps.squaredNorm() + lm * gg;
  const double t = den > 0.0 ? gg / den : 0.0;
  w.stepB.head(m) = t * w.gB.head(m);
  expand(p, w, w.stepB, w.dx);
  w.xC = w.x - w.dx;
  project_active_cones(p, w, w.xC);
}

// Predicted decrease of the Gauss-Newton model 1/2 |r + J eps|^2 for eps = x_N - x.
double predicted_decrease(double ell, Workspace& w) {
  w.eps = w.xN - w.x;
  w.Jeps.noalias() = w.J * w.eps;
  w.Jeps += w.rx;
  return ell - 0.5 * w.Jeps.squaredNorm();
}

void size_workspace(const Problem& p, Workspace& w) {
  const int n = p.nl;
  if (p.has_dense && p.D_dense.rows() == n)
    w.Am = p.D_dense;
  else
    p.D.to_dense(w.Am);
  if (p.R.size() == n) w.Am.diagonal() += p.R;
  w.Am.diagonal().array() -= 1.0;
  w.J.resize(n, n);
  w.JB.resize(n, n);
  w.HB.resize(n, n);
  for (VecX* v : {&w.x,     &w.xN,  &w.xC,  &w.xbest, &w.rx,   &w.q,    &w.gB,
                  &w.stepB, &w.dx,  &w.eps, &w.Jeps,  &w.s.f,  &w.s.r,  &w.s.Af,
                  &w.s.t,   &w.s.u, &w.s.w, &w.s.ju,  &w.s.ra, &w.s.rb, &w.s.best})
    v->resize(n);
  w.s.knots.reserve(3 * p.num_blocks() + 2);
}
}  // namespace

void solve(const Problem& p, const SolverSettings& st, const WarmStart& warm, SolverWorkspace& ws,
           Solution& sol, Stats* stats) {
  Stats local;
  Stats& S = stats ? *stats : local;
  S = Stats{};
  if (reject_invalid_problem("ngn", p, sol)) return;
  const Params prm{st.ngn.edge_tol,  st.ngn.lm_factor, st.ngn.accept_ratio,
                   st.ngn.ls_refine, st.ngn.restarts,  st.ngn.warm};
  sol.lambda.setZero(p.nl);
  if (p.nl == 0) {
    sol.status = SolveStatus::Converged;
    return;
  }
  auto& w = ws.get<Workspace>();
  size_workspace(p, w);
  initial_point(p, warm, prm.warm, w);
  double lm = -1.0;  // Levenberg-Marquardt lambda, set on the first pass (Todorov Sec. III-A)
  sol.status = SolveStatus::MaxIterations;
  for (int it = 0; it < st.max_iters; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    const double ell = objective(p, w.x, w.s);
    w.rx = w.s.r;
    S.iterations = sol.iterations = it + 1;
    sol.residual = w.rx.cwiseAbs().maxCoeff();
    if (st.trace) {
      sol.trace.push_back(sol.residual);
      S.objective.push_back(ell);
    }
    if (sol.residual <= st.tol) {
      sol.status = SolveStatus::Converged;
      break;
    }
    w.q.noalias() = w.Am * w.rx;  // (A - I) r, for the edge tests
    const int m = classify_blocks(p, w.x, w.rx, w.q, prm.eps, w);
    assemble(p, w);
    w.gB.head(m).noalias() = w.JB.leftCols(m).transpose() * w.rx;
    if (lm < 0.0) lm = 1e-3 * std::max(1.0, w.J.colwise().squaredNorm().maxCoeff());
    if (newton_point(p, m, lm, w)) {
      const double ellN = objective(p, w.xN, w.s);
      const double pred = predicted_decrease(ell, w);
      if (pred > 0.0 && ell - ellN >= prm.accept * pred) {  // the 50% rule (eq. 23)
        w.x.swap(w.xN);
        lm = std::max(lm / prm.nu, 1e-12);
        ++S.newton_steps;
        continue;
      }
    } else {
      w.xN = w.x;
    }
    lm = std::min(lm * prm.nu, 1e12);
    cauchy_point(p, m, lm, w);
    // Dogleg: edge-aware searches on x -> x_C and x_C -> x_N (Todorov Sec. III-C).
    double best = edge_aware_line_search(p, w.x, w.xC, ell, prm.refine, w.s);
    w.xbest = w.s.best;
    const double ellC = objective(p, w.xC, w.s);
    const double best2 = edge_aware_line_search(p, w.xC, w.xN, ellC, prm.refine, w.s);
    if (best2 < best) {
      best = best2;
      w.xbest = w.s.best;
    }
    if (!(best < ell) && S.restarts < prm.restarts) {
      // A non-zero local minimum of 1/2 |r|^2 (J singular there, Todorov Sec. V-A): leave it by
      // 10 2^k Gauss-Seidel prox sweeps on lambda = f(x) (prox-fp, omega = 1) and restart from
      // x = (A - I) lambda + v_f with a fresh Levenberg-Marquardt lambda (beyond the paper).
      force(p, w.x, w.xbest);
      prox_fp_sweeps(p, w.xbest, 10 << S.restarts, ws);
      w.x.noalias() = w.Am * w.xbest;
      w.x += p.v_f;
      lm = -1.0;
      ++S.restarts;
      continue;
    }
    if (!(best < ell)) {  // a local minimum of 1/2 |r|^2: keep the last iterate (paper)
      S.stalled = true;
      sol.message =
          "ngn stalled at a local minimum of |r|^2 (|r|_inf = " + std::to_string(sol.residual) +
          ")";
      break;
    }
    w.x.swap(w.xbest);
    ++S.line_searches;
  }
  if (sol.status == SolveStatus::MaxIterations && !S.stalled) {  // the cap: r at the last x
    objective(p, w.x, w.s);
    sol.residual = w.s.r.cwiseAbs().maxCoeff();
  }
  force(p, w.x, sol.lambda);  // lambda = f(x)
}

}  // namespace ngn

void solve_ngn(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
               Solution& sol) {
  ngn::solve(p, s, w, ws, sol, nullptr);
}

}  // namespace moreau
