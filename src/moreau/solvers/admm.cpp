// Proximal ADMM (Alg. 6, eq. 165-172): admm-ccp, admm-ncp-fp, admm-ncp-la, admm-ncp-sa.
// Sign convention: z is the NEGATIVE augmented velocity, z = -((D + R) y + v_f + s) at the fixed
// point (eq. 137a), so the fixed point y = P_K(y + z / rho) is K* ∋ -z ⊥ y ∈ K.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/admm_linear.hpp"
#include "moreau/solvers/admm_penalty.hpp"
#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau {

namespace {
using namespace first_order;

enum class Penalty { Fixed, Linear, Spectral };

struct AdmmParams {
  bool ncp = true;
  Penalty penalty = Penalty::Fixed;
  double rho0 = 1.0;       // "rho": initial penalty (FP/LA), paper default 1
  double eta = 1e-6;       // "eta": proximal weight (eq. 166)
  double relax = 1.0;      // "relaxation": over-relaxation alpha_r of line 7
  double ratio = 10.0;     // "alpha": residual-ratio threshold (eq. 171, 172)
  double tau_inc = 1.5;    // "tau_inc" (eq. 171)
  double tau_dec = 1.5;    // "tau_dec" (eq. 171)
  double p0 = 0.2;         // "sa_init_exponent" (eq. 172a)
  double tau_sa = 0.05;    // "sa_exponent" (eq. 172b)
  double rho_min = 1e-8;   // "rho_min"
  double rho_max = 1e8;    // "rho_max"
  int update_every = 1;    // "update_every": penalty update period in iterations
  bool accel = false;      // "accel": Nesterov momentum with restart (Goldstein et al. 2014)
  double restart = 0.999;  // "restart_tol": restart when the combined residual grows by this
  int backend = -1;        // "backend": -1 auto, 0 dense LLT, 1 sparse LDLT
  int dense_max = 128;     // "dense_max": auto picks dense LLT up to this many rows
  int power_iters = 30;    // "power_iters": power iterations for lambda_max (SA)
};

AdmmParams read_params(const SolverSettings& s, bool ncp, Penalty penalty) {
  AdmmParams a;
  a.ncp = ncp;
  a.penalty = penalty;
  a.rho0 = s.admm.rho;
  a.eta = s.admm.eta.value_or(ncp ? a.eta : 0.0);  // ADMM-CCP: eta = 0 (Sec. 3.8)
  a.relax = s.admm.relaxation;
  a.ratio = s.admm.alpha;
  a.tau_inc = s.admm.tau_inc;
  a.tau_dec = s.admm.tau_dec;
  a.p0 = s.admm.sa_init_exponent;
  a.tau_sa = s.admm.sa_exponent;
  a.rho_min = s.admm.rho_min;
  a.rho_max = s.admm.rho_max;
  a.update_every = std::max(1, s.admm.update_every);
  a.accel = s.admm.accel;
  a.restart = s.admm.restart_tol;
  a.backend = s.admm.backend;
  a.dense_max = s.admm.dense_max;
  a.power_iters = s.admm.power_iters;
  return a;
}

struct AdmmWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Admm;
  AdmmLinearSolver linear;
  GrowVec x, x_prev, y, y_prev, z, z_prev, y_hat, z_hat, s, rhs, v, scratch, e1, e2;
  void resize(int n) {
    for (GrowVec* w :
         {&x, &x_prev, &y, &y_prev, &z, &z_prev, &y_hat, &z_hat, &s, &rhs, &v, &scratch})
      w->resize(n);
  }
};

// Initial penalty: rho_0 (FP, LA) or sqrt(L m) kappa^p0 with m := eta (eq. 172a).
double initial_penalty(const Problem& p, const AdmmParams& a, AdmmWorkspace& w, double* kappa) {
  *kappa = 1.0;
  if (a.penalty != Penalty::Spectral) return a.rho0;
  const double L = largest_eigenvalue(p, a.power_iters, w.e1, w.e2);
  return admm_penalty::spectral_initial(L, a.eta > 0.0 ? a.eta : 1e-6, a.p0, kappa);
}

// Penalty update (eq. 171 LA, eq. 172b SA); returns the new penalty.
double update_penalty(const AdmmParams& a, double rho, double kappa, double rp, double rd) {
  if (!(rp > a.ratio * rd) && !(rd > a.ratio * rp)) return rho;  // balanced: no update
  double next = rho;
  if (a.penalty == Penalty::Linear)
    next = admm_penalty::linear_update(rho, rp, rd, a.ratio, a.tau_inc, a.tau_dec);
  if (a.penalty == Penalty::Spectral)
    next = admm_penalty::spectral_update(rho, kappa, rp, rd, a.ratio, a.tau_sa);
  return std::clamp(next, a.rho_min, a.rho_max);
}

// Warm start: x = y = lambda^0, z = -(v^+(lambda^0) + Gamma) (Alg. 6 lines 1-2).
void initialize(const Problem& p, const AdmmParams& a, const WarmStart& warm, AdmmWorkspace& w) {
  if (warm.empty())
    w.y.setZero();
  else
    w.y = warm.lambda;
  project_primal(p, w.y, w.y);  // y is the feasible iterate
  w.x = w.y;
  multiply_regularized(p, w.y, w.v);
  w.v += p.v_f;
  if (a.ncp)
    de_saxce_term(p, w.v, w.s);
  else
    w.s.setZero();
  w.z = -(w.v + w.s);
  w.y_hat = w.y;
  w.z_hat = w.z;
}

// One ADMM iteration (Alg. 6 lines 4-9) from (x, y_hat, z_hat); returns r_p and r_d.
void iterate(const Problem& p, const AdmmParams& a, double rho, AdmmWorkspace& w, double* rp,
             double* rd) {
  w.x_prev = w.x;
  w.y_prev = w.y;
  w.z_prev = w.z;
  // s = Gamma(-z): De Saxce estimate from the current velocity (line 4); |z_T| = |(-z)_T|.
  if (a.ncp) de_saxce_term(p, w.z_hat, w.s);
  // x = -(D + R + (eta + rho) I)^-1 (v_f + s - eta x - rho y + z)   (eq. 168, lines 5-6)
  w.rhs = p.v_f + w.s - a.eta * w.x_prev - rho * w.y_hat + w.z_hat;
  w.linear.solve(w.rhs, w.x);
  w.x = -w.x;
  w.x = a.relax * w.x + (1.0 - a.relax) * w.y_hat;  // over-relaxation (line 7)
  // y = P_K(x + z / rho)   (eq. 169, line 8)
  w.y = w.x + w.z_hat / rho;
  project_primal(p, w.y, w.y);
  w.z = w.z_hat + rho * (w.x - w.y);  // dual ascent (eq. 167d, line 9)
  // r_p = ||x - y||, r_d = ||eta (x - x_prev) + rho (y - y_prev)||   (eq. 170a-b)
  *rp = (w.x - w.y).cwiseAbs().maxCoeff();
  *rd = (a.eta * (w.x - w.x_prev) + rho * (w.y - w.y_hat)).cwiseAbs().maxCoeff();
}

struct Momentum {
  double a = 1.0;                                           // Nesterov sequence
  double c_prev = std::numeric_limits<double>::infinity();  // previous combined residual
};

// Next (y_hat, z_hat): Nesterov extrapolation with restart (Goldstein et al.), or (y, z).
void extrapolate(const AdmmParams& a, double rho, AdmmWorkspace& w, Momentum& m) {
  // Momentum (Nesterov) on (y, z) with restart on the combined residual (Goldstein et al.).
  const double c =
      a.accel ? (w.z - w.z_hat).squaredNorm() / rho + rho * (w.y - w.y_hat).squaredNorm() : 0.0;
  if (a.accel && c < a.restart * m.c_prev) {
    const double next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * m.a * m.a));
    const double beta = (m.a - 1.0) / next;
    w.y_hat = w.y + beta * (w.y - w.y_prev);
    w.z_hat = w.z + beta * (w.z - w.z_prev);
    m.a = next;
    m.c_prev = c;
  } else {
    w.y_hat = w.y;
    w.z_hat = w.z;
    m.a = 1.0;
    m.c_prev = a.accel ? c : m.c_prev;
  }
}

void solve_admm(const Problem& p, const SolverSettings& st, const WarmStart& warm,
                SolverWorkspace& ws, Solution& sol, const AdmmParams& a) {
  if (p.nl == 0) {
    sol.status = SolveStatus::Converged;
    return;
  }
  const auto t_setup = std::chrono::steady_clock::now();
  auto& w = ws.get<AdmmWorkspace>();
  w.resize(p.nl);
  initialize(p, a, warm, w);
  sol.status = SolveStatus::MaxIterations;
  double kappa = 1.0;
  double rho = initial_penalty(p, a, w, &kappa);
  w.linear.setup(p, a.backend, a.dense_max);
  if (!w.linear.factor(a.eta + rho)) {
    sol.status = SolveStatus::Failed;
    sol.message = "factorization of D + R + (eta + rho) I failed";
    sol.lambda = w.y;
    return;
  }
  // Set-up: the initial penalty and the factorization of D + R + (eta + rho) I.
  sol.setup_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_setup).count();
  Momentum mom;
  // A safeguard beyond the report: an adapted penalty that swings by kappa^tau every iteration can
  // make the iterates diverge (the loop biped's full problem: 4 redundant rows, light rods on a
  // heavy pelvis, max(r_p, r_d) from 1e-2 up to 2e5 in 1000 iterations); the adaptation stops
  // for the rest of the solve once max(r_p, r_d) rises kRiseFreeze times above its best (or tol; a
  // transient rise of 100x is common before ADMM settles), and ADMM
  // goes on with a fixed penalty, whose convergence does not depend on the schedule (Boyd et al.
  // 2011, sec. 3.4.1).
  constexpr double kRiseFreeze = 1e4;
  double best = std::numeric_limits<double>::infinity();
  bool adapt = a.penalty != Penalty::Fixed;
  for (int it = 0; it < st.max_iters; ++it) {
    if (should_stop()) break;  // a signal or the step's time budget (solvers/stop.hpp)
    double rp, rd;
    iterate(p, a, rho, w, &rp, &rd);
    sol.iterations = it + 1;
    sol.residual = std::max(rp, rd);
    if (st.trace) sol.trace.push_back(sol.residual);  // max(r_p, r_d) per iteration
    if (!std::isfinite(sol.residual)) {
      sol.status = SolveStatus::Diverged;
      break;
    }
    if (rp <= st.tol && rd <= st.tol) {
      // Natural map of y (eq. 163/164): the common stopping test, one D product.
      multiply_regularized(p, w.y, w.v);
      w.v += p.v_f;
      sol.residual = ncp_residuals(p, w.y, w.v, a.ncp, w.scratch).natmap;
      if (sol.residual <= st.tol) {
        sol.status = SolveStatus::Converged;
        break;
      }
    }
    extrapolate(a, rho, w, mom);
    best = std::min(best, std::max(rp, rd));
    if (std::max(rp, rd) > kRiseFreeze * std::max(best, st.tol)) adapt = false;
    // Penalty update (eq. 171/172); refactor only when rho changed (line 18).
    if (!adapt || (it + 1) % a.update_every != 0) continue;
    const double next = update_penalty(a, rho, kappa, rp, rd);
    if (next == rho) continue;
    rho = next;
    mom = Momentum{};
    if (!w.linear.factor(a.eta + rho)) {
      sol.status = SolveStatus::Failed;
      sol.message = "factorization of D + R + (eta + rho) I failed";
      break;
    }
  }
  sol.lambda = w.y;  // the feasible iterate (line 10)
  if (sol.status == SolveStatus::MaxIterations) {
    // Report the natural map of the returned iterate, as on convergence.
    multiply_regularized(p, w.y, w.v);
    w.v += p.v_f;
    sol.residual = ncp_residuals(p, w.y, w.v, a.ncp, w.scratch).natmap;
  }
}

// The four registered variants differ only in the NCP flag and the penalty rule.
template <bool kNcp, Penalty kPenalty>
void solve_admm_variant(const Problem& p, const SolverSettings& s, const WarmStart& w,
                        SolverWorkspace& ws, Solution& sol) {
  solve_admm(p, s, w, ws, sol, read_params(s, kNcp, kPenalty));
}
}  // namespace

extern const SolveFn solve_admm_ccp = solve_admm_variant<false, Penalty::Fixed>;
extern const SolveFn solve_admm_ncp_fp = solve_admm_variant<true, Penalty::Fixed>;
extern const SolveFn solve_admm_ncp_la = solve_admm_variant<true, Penalty::Linear>;
extern const SolveFn solve_admm_ncp_sa = solve_admm_variant<true, Penalty::Spectral>;

}  // namespace moreau
