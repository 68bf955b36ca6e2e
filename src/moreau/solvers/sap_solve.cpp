// SAP's Newton method with exact line search (Castro et al. 2023, Sec. IV, Alg. 2) on the
// Problem's primal view, and the registered solver "sap".
#include <cmath>

#include "moreau/solvers/sap.hpp"
#include "moreau/solvers/sap_linear.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {

namespace {
using sap::Mat6R;

struct SapWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Sap;
  SapModel model;
  VecX v, gamma;
  GrowVec vc, dv, dvc, dp, r, jc, sc;  // sc: scaled vectors for eq. 26
  std::vector<Mat6R> G;
  sap::HessianSolver hessian;  // H = M + J^T G J: dense LLT or CHOLMOD (sap_linear.hpp)
};

template <class Vec>
void resize(Vec& x, Eigen::Index n) {
  if (x.size() != n) x.resize(n);
}

// Evaluates every block at v_c: gamma, G per block; returns the regularizer cost.
double eval_all(const Problem& p, const SapModel& m, const GrowVec& vc, GrowVec& gamma,
                std::vector<Mat6R>& G) {
  double c = 0.0;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    c += sap::eval_block(b, m, vc.data() + b.offset, gamma.data() + b.offset, &G[i]);
  }
  return c;
}

// Derivatives of l(alpha) = l(v + alpha dv) along the search direction (Sec. IV-B):
// dl = dp^T (v - v*) + alpha dv^T dp - dvc^T gamma(alpha), d2l = dv^T dp + dvc^T G(alpha) dvc.
// O(n) per evaluation: one projection pass, no product with M or J.
struct LineFunction {
  const Problem& p;
  const SapModel& m;
  const GrowVec& vc;
  const GrowVec& dvc;
  double a0, c2;  // dp^T (v - v*), dv^T dp
  void operator()(double alpha, double& dl, double& d2l) const {
    dl = a0 + alpha * c2;
    d2l = c2;
    double vb[6], gb[6];
    Mat6R G;
    for (const ConstraintBlock& b : p.blocks) {
      const int o = b.offset, n = b.size;
      for (int k = 0; k < n; ++k) vb[k] = vc[o + k] + alpha * dvc[o + k];
      sap::eval_block(b, m, vb, gb, &G);
      for (int k = 0; k < n; ++k) {
        dl -= dvc[o + k] * gb[k];
        double gd = 0.0;
        for (int l = 0; l < n; ++l) gd += G(k, l) * dvc[o + l];
        d2l += dvc[o + k] * gd;
      }
    }
  }
};

// The unique root of dl/dalpha on [0, alpha_max] by rtsafe (Newton-Raphson safeguarded by
// bisection, Numerical Recipes Sec. 9.4); alpha_max when l still decreases there.
double exact_line_search(const LineFunction& f, double dl0, const SapParameters& prm) {
  double fh, dfh;
  f(prm.alpha_max, fh, dfh);
  if (fh <= 0.0) return prm.alpha_max;
  double lo = 0.0, hi = prm.alpha_max;
  double x = 1.0, dx_old = hi - lo, dx = dx_old;  // the Newton step alpha = 1 first
  const double ftol = prm.ls_tol * std::abs(dl0);
  double fx, dfx;
  f(x, fx, dfx);
  for (int it = 0; it < prm.ls_max_iters; ++it) {
    if (std::abs(fx) <= ftol) return x;
    if (fx < 0.0)
      lo = x;
    else
      hi = x;
    if (((x - hi) * dfx - fx) * ((x - lo) * dfx - fx) > 0.0 ||
        std::abs(2.0 * fx) > std::abs(dx_old * dfx)) {
      dx_old = dx;
      dx = 0.5 * (hi - lo);
      x = lo + dx;
    } else {
      dx_old = dx;
      dx = fx / dfx;
      x -= dx;
    }
    if (hi - lo <= 4.0 * std::numeric_limits<double>::epsilon() * hi) return x;
    f(x, fx, dfx);
  }
  return x;
}

}  // namespace

SapResult sap_minimize(const Problem& p, const SapParameters& prm, const SapModel& m, VecX& v,
                       GrowVec& gamma, SolverWorkspace& ws, std::vector<double>* em_trace,
                       std::vector<double>* cost_trace) {
  auto& w = ws.get<SapWorkspace>();
  const int n = 6 * p.num_bodies, nl = p.nl;
  resize(gamma, nl);
  resize(w.vc, nl);
  resize(w.dvc, nl);
  resize(w.dv, n);
  resize(w.dp, n);
  resize(w.r, n);
  resize(w.jc, n);
  resize(w.sc, n);
  if (static_cast<int>(w.G.size()) < p.num_blocks()) w.G.resize(p.num_blocks());

  SapResult res;
  double prev_cost = 0.0, alpha = 0.0;
  bool hessian_ready = false;
  for (int k = 0;; ++k) {
    // One fused pass: v_c, gamma, G, cost; then the momentum residual r = M (v - v*) - J^T gamma.
    p.apply_J(v, w.vc);
    double cost = eval_all(p, m, w.vc, gamma, w.G);
    w.jc.setZero();
    p.apply_JT_add(gamma, w.jc);
    double np2 = 0.0;  // |D M v|^2
    for (int i = 0; i < p.num_bodies; ++i) {
      const Vec6 dv = v.segment<6>(6 * i) - p.u_free.segment<6>(6 * i);
      const Vec6 Mdv = p.M[i] * dv;
      cost += 0.5 * dv.dot(Mdv);
      w.r.segment<6>(6 * i) = Mdv - w.jc.segment<6>(6 * i);
      np2 += (m.scale.segment<6>(6 * i).cwiseProduct(p.M[i] * v.segment<6>(6 * i))).squaredNorm();
    }
    // Stopping test, eq. 26, with D = diag(M)^-1/2 (eq. 25).
    const double nr = m.scale.cwiseProduct(w.r).norm();
    const double nj = m.scale.cwiseProduct(w.jc).norm();
    const double ref = std::max(std::sqrt(np2), nj);
    res.em = ref > 0.0 ? nr / ref : nr;  // eq. 32
    if (em_trace) em_trace->push_back(res.em);
    if (cost_trace) cost_trace->push_back(cost);
    if (nr < prm.abs_tol + prm.rel_tol * ref) {
      res.status = SolveStatus::Converged;
      return res;
    }
    // Round-off stall (as Drake's cost criterion): a long step that no longer lowers the cost.
    if (prm.cost_stop && k > 0 && alpha > 0.5 &&
        std::abs(cost - prev_cost) < 1e-30 + 1e-15 * 0.5 * (cost + prev_cost)) {
      res.status = SolveStatus::Converged;
      res.message = "cost stalled at round-off before eq. 26 was met";
      return res;
    }
    if (k >= prm.max_iters || should_stop()) {  // should_stop: solvers/stop.hpp
      res.status = SolveStatus::MaxIterations;
      return res;
    }
    // Newton direction dv = -H^-1 r, H = M + J^T G J (Sec. IV-A).
    if (!hessian_ready) {  // the backend and, when sparse, the symbolic analysis: once a call
      w.hessian.setup(p, prm.linear_solver, prm.dense_max);
      res.sparse = w.hessian.backend() == sap::LinearSolver::Sparse;
      hessian_ready = true;
    }
    if (!w.hessian.factor(p, w.G)) {
      res.status = SolveStatus::Failed;
      res.message = "Cholesky factorization of the Hessian M + J^T G J failed";
      return res;
    }
    w.dv = -w.r;
    if (!w.hessian.solve_in_place(w.dv) || !w.dv.allFinite()) {
      res.status = SolveStatus::Failed;
      res.message = "non-finite Newton direction";
      return res;
    }
    p.apply_J(w.dv, w.dvc);
    double a0 = 0.0, c2 = 0.0;
    for (int i = 0; i < p.num_bodies; ++i) {
      const Vec6 dpi = p.M[i] * w.dv.segment<6>(6 * i);
      w.dp.segment<6>(6 * i) = dpi;
      a0 += dpi.dot(v.segment<6>(6 * i) - p.u_free.segment<6>(6 * i));
      c2 += dpi.dot(w.dv.segment<6>(6 * i));
    }
    const double dl0 = w.r.dot(w.dv);  // dl/dalpha at 0 = -r^T H^-1 r < 0
    if (!(dl0 < 0.0)) {  // no descent: round-off from ill-conditioning (Drake throws here)
      res.status = SolveStatus::MaxIterations;
      res.message = "Newton direction is not a descent direction (round-off)";
      return res;
    }
    const LineFunction f{p, m, w.vc, w.dvc, a0, c2};
    alpha = exact_line_search(f, dl0, prm);
    v.noalias() += alpha * w.dv;
    prev_cost = cost;
    ++res.iterations;
  }
}

void solve_sap(const Problem& p, const SolverSettings& s, const WarmStart& warm,
               SolverWorkspace& ws, Solution& sol) {
  const SapParameters prm = sap_parameters(s);
  auto fail = [&](std::string msg) {
    sol.status = SolveStatus::Failed;
    sol.lambda.setZero();
    sol.message = std::move(msg);
  };
  if (std::string err = sap_parameters_error(prm); !err.empty()) return fail(err);
  const int nb = p.num_bodies, n = 6 * nb;
  if (static_cast<int>(p.M.size()) != nb || static_cast<int>(p.Minv.size()) != nb ||
      p.u_free.size() != n || p.u_minus.size() != n || p.f.size() != p.nl || !(p.dt > 0.0))
    return fail(
        "sap: the Problem has no primal view (M, Minv, u_free, u_minus of 6 nb entries, f of nl "
        "entries and dt > 0 are required; FCLib problems carry only D and v_f)");
  for (const ConstraintBlock& b : p.blocks) {
    for (int c = 0; c < 2; ++c)
      if (b.body[c] >= nb) return fail("sap: a constraint block names a body outside the Problem");
    // Its primal model has no compliant rows with a bias of their own (docs/dynamics.md).
    if (b.rotor_rows > 0)
      return fail(
          "sap: the Problem has armature rows (joint rotor inertia, MJCF armature), which SAP's "
          "model does not take: import MJCF with --set armature=inertia, or pick another solver");
  }
  auto& w = ws.get<SapWorkspace>();
  sap_model(p, prm, w.model);
  // Warm start (Sec. IV): v = u_free + M^-1 J^T lambda for a given lambda (the previous step's
  // impulses, mapped by id), else (or with warm_velocity, the paper's choice) the previous
  // velocity u^-.
  resize(w.v, n);
  if (warm.empty() || prm.warm_velocity)
    w.v = p.u_minus;
  else
    p.velocity_from_impulse(warm.lambda, w.v);
  const SapResult r =
      sap_minimize(p, prm, w.model, w.v, sol.lambda, ws, s.trace ? &sol.trace : nullptr, nullptr);
  sol.status = r.status;
  sol.iterations = r.iterations;
  sol.residual = r.em;
  if (r.status != SolveStatus::Converged || r.message[0] != '\0') sol.message = r.message;
  if (r.status == SolveStatus::Failed) sol.message = std::string("sap: ") + r.message;
}

}  // namespace moreau
