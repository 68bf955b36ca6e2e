#pragma once
// "sap": the Semi-Analytic Primal solver of Castro, Permenter & Han, "An unconstrained convex
// formulation of compliant contact" (IEEE T-RO 2023; arXiv 2110.10107). On the Problem's primal
// view it minimizes (eq. 24)
//   l(v) = 1/2 |v - v*|_M^2 + sum_i 1/2 gamma_i^T R_i gamma_i,   gamma_i = P_Fi(y_i),
//   y_i = -R_i^-1 (J_i v - vhat_i),
// with Newton's method and an exact line search (Sec. IV, Alg. 2). The impulses gamma are the
// solution of the regularized dual (eq. 22): min_{gamma in F} 1/2 gamma^T (D + R) gamma +
// gamma^T (J v* - vhat). Contacts use the friction cone in the R-scaled metric (Sec. V-A),
// joint rows (cone R^m) and limit rows (R_+) the same family with the identity and the
// half-line projection. See docs/solvers.md, section `sap`.
#include <limits>
#include <string>
#include <vector>

#include "moreau/solvers/solver.hpp"

namespace moreau {

// Every SAP parameter, with its default. Filled from SolverSettings by sap_parameters() only.
struct SapParameters {
  // Default contact stiffness k [N/m] for contacts whose materials set none (ConstraintBlock::
  // stiffness = inf); +inf (default) makes those contacts near-rigid (eq. 29: the regularization
  // is then beta^2 / (4 pi^2) w_i).
  double stiffness = std::numeric_limits<double>::infinity();
  // Default dissipation time scale tau_d [s] for contacts whose materials set none; NaN (default)
  // means the near-rigid value (beta / pi) dt (Sec. V-B: T_n = beta dt with critical damping).
  double tau_d = std::numeric_limits<double>::quiet_NaN();
  double beta = 1.0;       // near-rigid parameter (Sec. V-B)
  double sigma = 1e-3;     // friction regularization R_t = sigma w_i (eq. 30)
  double abs_tol = 1e-16;  // eps_a of the stopping test (eq. 26)
  double rel_tol = 1e-6;   // eps_r of the stopping test (eq. 26): SolverSettings::tol
  int max_iters = 100;     // Newton iterations: SolverSettings::max_iters
  double alpha_max = 1.5;  // exact line search bracket [0, alpha_max]
  int ls_max_iters = 100;  // line-search (rtsafe) iterations
  double ls_tol = 1e-10;   // |dl/dalpha| <= ls_tol |dl/dalpha(0)| ends the line search
  bool cost_stop = true;   // also stop when the cost stalls at round-off (alpha > 0.5)
  // Warm start from the previous velocity u^- (the paper's, Sec. IV) even when the previous
  // step's impulses are given; off: v = u_free + M^-1 J^T lambda_warm (docs/solvers.md, sap).
  bool warm_velocity = true;
  int linear_solver = -1;  // Newton system: -1 auto, 0 dense LLT, 1 CHOLMOD (sap_linear.hpp)
  int dense_max = 90;      // auto: dense when 6 nb <= dense_max
};

// Reads SolverSettings (tol -> rel_tol, max_iters, params "stiffness", "tau_d", "beta",
// "sigma", "abs_tol", "alpha_max", "ls_max_iters", "ls_tol", "cost_stop", "warm_velocity",
// "linear_solver", "dense_max"). The only place that reads SAP settings.
SapParameters sap_parameters(const SolverSettings& s);
// Empty when valid; otherwise which parameter is wrong, e.g. "sap: sigma must be >= 0, got -1".
std::string sap_parameters_error(const SapParameters& prm);

// Per-row regularization R, its inverse and the bias vhat of every constraint of a Problem
// (Sec. V: eq. 29-30 for contacts, with k and tau_d of each contact from its materials,
// ConstraintBlock::stiffness / tau_d, else the parameters' defaults; joints and limits
// near-rigid with the per-row Delassus diagonal). Rows with R^-1 = 0 are inactive.
struct SapModel {
  GrowVec R, Rinv, vhat;  // nl
  VecX scale;             // diag(M)^-1/2, 6 nb (eq. 25)
};
void sap_model(const Problem& p, const SapParameters& prm, SapModel& m);

namespace sap {
using Mat6R = Eigen::Matrix<double, 6, 6>;

// Projection onto the friction cone {|g_t| <= mu g_n} in the metric R = diag(Rt, Rt, Rn)
// (Sec. V-A, App. C): gamma = argmin_{g in F} 1/2 (g - y)^T R (g - y). When G is given it
// receives G = (dP/dy) R^-1 = -d gamma / d v_c (App. D), 0 <= G <= R^-1.
void project_coulomb(double mu, double Rt, double Rn, const Vec3& y, Vec3& gamma, Mat3* G);

// One constraint block: y = -R^-1 (v_c - vhat), gamma = P(y) (identity for joint rows, max(0, .)
// for limits, project_coulomb for contacts). Returns 1/2 gamma^T R gamma; fills the top-left
// size x size of G when given.
double eval_block(const ConstraintBlock& b, const SapModel& m, const double* vc, double* gamma,
                  Mat6R* G);

// The cost l(v) (eq. 24); grad = M (v - v*) - J^T gamma (eq. 38) and the dense Hessian
// H = M + J^T G J (eq. 39) when asked; gamma (nl) when asked. For tests and diagnostics.
double cost(const Problem& p, const SapModel& m, const VecX& v, VecX* grad, MatX* H, VecX* gamma);
}  // namespace sap

// SAP's Newton iterations (Alg. 2) from v (in place) with exact line search; gamma = P(y(v))
// on exit. em_trace / cost_trace (optional) receive e_m (eq. 32) and l(v) per iterate.
struct SapResult {
  SolveStatus status = SolveStatus::Failed;
  int iterations = 0;        // Newton steps (factorizations)
  double em = 0.0;           // momentum error e_m at exit (eq. 32)
  const char* message = "";  // static text on failure or stall
  bool sparse = false;       // the Hessian was factored by CHOLMOD (sap_linear.hpp)
};
SapResult sap_minimize(const Problem& p, const SapParameters& prm, const SapModel& m, VecX& v,
                       GrowVec& gamma, SolverWorkspace& ws, std::vector<double>* em_trace,
                       std::vector<double>* cost_trace);

// Registered as "sap". Status: Converged when eq. 26 holds (or the cost stalls at round-off);
// MaxIterations at the cap; Failed for invalid parameters, a Problem without its primal view
// (FCLib problems) or a failed factorization. Solution::residual is the momentum error e_m
// (eq. 32), Solution::trace e_m per iteration, lambda = gamma.
void solve_sap(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
               Solution& sol);

}  // namespace moreau
