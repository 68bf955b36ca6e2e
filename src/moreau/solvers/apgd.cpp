// "apgd": accelerated projected gradient descent (Mazhar, Tasora et al. 2015, Chrono's APGD) on
//   min_{x in K} f(x) = 1/2 x^T (D + R) x + x^T (v_f + s)        (eq. 19 / 96; s = 0: the CCP)
// with Nesterov momentum, backtracking on the Lipschitz estimate L, gradient restart, and the
// best iterate kept. Param "ncp" = 1 refreshes s = Gamma(v) every iteration (De Saxce fixed point).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {

namespace {
using namespace first_order;

struct ApgdWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Apgd;
  // gamma: iterate; y: extrapolated point; Dg = (D+R) gamma, Dy = (D+R) y (kept by linearity).
  // pre: diagonal preconditioner P, one positive scalar per cone block (per row on joints), so
  // that P K = K and the P^-1-metric projection onto K is the Euclidean one.
  GrowVec gamma, gamma_prev, y, Dg, Dg_prev, Dy, g, s, trial, Dtrial, best, v, scratch, pre;
  void resize(int n) {
    for (GrowVec* w : {&gamma, &gamma_prev, &y, &Dg, &Dg_prev, &Dy, &g, &s, &trial, &Dtrial, &best,
                       &v, &scratch, &pre})
      w->resize(n);
  }
};

// f(x) = 1/2 x^T (D x) + x^T q with (D x) given.
// P = 1 / diag(D + R): per row on joint blocks, 1 / max diagonal on limit and contact blocks.
void jacobi_scaling(const Problem& p, bool on, GrowVec& pre) {
  pre.setOnes();
  if (!on) return;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const Mat6 A = regularized_diagonal_block(p, i);
    const double dmax = std::max(A.diagonal().head(b.size).maxCoeff(), 1e-300);
    for (int k = 0; k < b.size; ++k)
      pre[b.offset + k] = 1.0 / (b.cone == ConeKind::Free ? std::max(A(k, k), 1e-12 * dmax) : dmax);
  }
}

double objective(const VecCRef& x, const VecCRef& Dx, const VecCRef& q_f, const VecCRef& s) {
  return 0.5 * x.dot(Dx) + x.dot(q_f) + x.dot(s);
}
}  // namespace

void solve_apgd(const Problem& p, const SolverSettings& st, const WarmStart& warm,
                SolverWorkspace& ws, Solution& sol) {
  const auto t_setup = std::chrono::steady_clock::now();
  auto& w = ws.get<ApgdWorkspace>();
  const bool ncp = st.apgd.ncp;
  const double shrink = st.apgd.lipschitz_decay;  // L <- 0.9 L after each iteration
  w.resize(p.nl);
  jacobi_scaling(p, st.apgd.precondition, w.pre);
  sol.status = SolveStatus::MaxIterations;
  if (warm.empty())
    w.gamma.setZero();
  else
    w.gamma = warm.lambda;
  project_primal(p, w.gamma, w.gamma);
  multiply_regularized(p, w.gamma, w.Dg);
  // L_0 = ||P (D+R) e|| / ||e||, e = gamma_0 - 1, as Chrono (backtracking corrects any start).
  w.trial = w.gamma - VecX::Ones(p.nl);
  multiply_regularized(p, w.trial, w.Dtrial);
  double L = p.nl ? std::max(w.pre.cwiseProduct(w.Dtrial).norm() / w.trial.norm(), 1e-12) : 1.0;
  w.y = w.gamma;
  w.Dy = w.Dg;
  w.gamma_prev = w.gamma;
  w.Dg_prev = w.Dg;
  w.best = w.gamma;
  w.s.setZero();
  double theta = 1.0, best_res = std::numeric_limits<double>::infinity();
  // Set-up: the Jacobi scaling and the first Lipschitz estimate.
  sol.setup_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_setup).count();
  for (int it = 0; it < st.max_iters && p.nl > 0; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    // Gradient at y: (D+R) y + v_f + s, with s = Gamma(v(y)) frozen for this step (NCP option).
    w.v = w.Dy + p.v_f;
    if (ncp) de_saxce_term(p, w.v, w.s);
    w.g = w.v + w.s;
    const double fy = objective(w.y, w.Dy, p.v_f, w.s);
    // Projected (preconditioned) step with backtracking: grow L until the quadratic upper bound
    // f(t) <= f(y) + g.(t - y) + L/2 |t - y|^2_{P^-1} holds.
    for (int bt = 0; bt < 60; ++bt) {
      w.trial = w.y - w.pre.cwiseProduct(w.g) / L;
      project_primal(p, w.trial, w.trial);
      multiply_regularized(p, w.trial, w.Dtrial);
      const double ft = objective(w.trial, w.Dtrial, p.v_f, w.s);
      const double model = fy + w.g.dot(w.trial - w.y) +
                           0.5 * L * (w.trial - w.y).cwiseAbs2().cwiseQuotient(w.pre).sum();
      if (ft <= model + 1e-14 * std::abs(fy)) break;
      L *= 2.0;
    }
    w.gamma_prev.swap(w.gamma);
    w.Dg_prev.swap(w.Dg);
    w.gamma.swap(w.trial);
    w.Dg.swap(w.Dtrial);
    // Residual: natural map of gamma (eq. 163 or 164).
    w.v = w.Dg + p.v_f;
    const double res = ncp_residuals(p, w.gamma, w.v, ncp, w.scratch).natmap;
    sol.iterations = it + 1;
    if (st.trace) sol.trace.push_back(res);
    if (!std::isfinite(res)) {
      sol.status = SolveStatus::Diverged;
      break;
    }
    if (res < best_res) {
      best_res = res;
      w.best = w.gamma;
    }
    if (res <= st.tol) {
      sol.status = SolveStatus::Converged;
      break;
    }
    // Nesterov extrapolation; restart when the step goes against the gradient.
    const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
    const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    if (w.g.dot(w.gamma - w.gamma_prev) > 0.0) {
      w.y = w.gamma;
      w.Dy = w.Dg;
      theta = 1.0;
    } else {
      w.y = w.gamma + beta * (w.gamma - w.gamma_prev);
      w.Dy = w.Dg + beta * (w.Dg - w.Dg_prev);  // (D+R) y by linearity: no product
      theta = theta_next;
    }
    L *= shrink;
  }
  if (p.nl == 0) sol.status = SolveStatus::Converged;
  sol.lambda = w.best;
  sol.residual = p.nl ? best_res : 0.0;
}

}  // namespace moreau
