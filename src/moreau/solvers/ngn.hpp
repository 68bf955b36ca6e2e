#pragma once
// "ngn": Todorov's implicit nonlinear complementarity (ICRA 2010, Sec. II-III), solved by a
// non-smooth Gauss-Newton / Levenberg-Marquardt method. The unknown x in R^nl is unconstrained;
// per block the impulse f(x) and velocity v(x) = f(x) + x (eq. 14) satisfy the contact laws for
// every x:
//   joints   f = -x (v = 0)
//   limits   f = max(0, -x), v = max(0, x)
//   contacts (moreau order [t, o, n], x_n is Todorov's x_1, b = 0 since v_f holds the bias)
//            f_n = max(0, b - x_n) (eq. 10), s = min(1, mu f_n / |x_T|) (eq. 12), f_T = -s x_T (13)
// and the solver drives r(x) = (A - I) f(x) - x + v_f = 0 (eq. 15), A = D + R. Then lambda = f(x).
#include <vector>

#include "moreau/solvers/solver.hpp"

namespace moreau {

// Parameters: "edge_tol" (1e-10, relative, ours), "lm_factor" (10, the lambda schedule nu),
// "accept_ratio" (0.5, eq. 23 test), "ls_refine" (1: cubic refinements per sub-segment),
// "warm" (1: use the warm start when given; 0: always the all-stick initialisation),
// "restarts" (5: at a non-zero local minimum of 1/2 |r|^2, up to this many restarts after
// 10 2^k Gauss-Seidel prox sweeps on lambda = f(x); 0 = the paper's behaviour, stop there).
// Status: Converged when ||r||_inf <= tol; MaxIterations at the cap or when no candidate lowers
// 1/2 |r|^2 (a local minimum: the last iterate is returned, as in the paper).
void solve_ngn(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
               Solution& sol);

namespace ngn {

// ---- per-contact maps (pure functions, moreau order [t, o, n]) ----
Vec3 contact_force(const Vec3& x, double mu, double b = 0.0);  // f(x), eq. 10-13
inline Vec3 contact_velocity(const Vec3& x, double mu, double b = 0.0) {
  return contact_force(x, mu, b) + x;  // eq. 14
}
// dF/dx off the edges: 0 (break), -I (stick), the slip block (derivative of eq. 12-13).
Mat3 contact_force_jacobian(const Vec3& x, double mu, double b = 0.0);
// Closest point of the friction-cone edge |x_T| = mu (b - x_n) to x (Todorov III-D, closed form).
Vec3 project_cone_edge(const Vec3& x, double mu, double b = 0.0);
// Parameters alpha in (0, 1) where p + alpha u crosses the plane x_n = b or the cone (eq. 27).
// Writes up to 3 values to out, returns how many.
int contact_crossings(const Vec3& p, const Vec3& u, double mu, double b, double out[3]);

// ---- whole-problem pieces ----
struct Stats {
  int iterations = 0;             // passes of the main loop (the last one finds ||r|| <= tol)
  int newton_steps = 0;           // iterations that accepted x_N (the 50% rule)
  int line_searches = 0;          // iterations that took the dogleg line-search candidate
  int restarts = 0;               // restarts taken to leave a local minimum
  bool stalled = false;           // ended at a local minimum of 1/2 |r|^2
  std::vector<double> objective;  // 1/2 |r|^2 per pass (filled when SolverSettings::trace)
};

// Scratch for residual evaluations and the line search; sized on first use.
struct Scratch {
  VecX f, r, Af, t, u, w, ju, ra, rb, best;
  std::vector<double> knots;
};

// 1/2 |r(x)|^2; fills s.f = f(x) and s.r = r(x).
double objective(const Problem& p, const VecX& x, Scratch& s);
// f(x) for the whole problem.
void force(const Problem& p, const VecCRef& x, VecRef f);

// Edge-aware line search on the segment a -> b (Todorov Sec. III-C): splits it at every plane and
// cone crossing, runs a Hermite-cubic search on each smooth piece, and writes the best point (the
// knots, the cubic minimisers; a itself included) to s.best. Returns 1/2 |r|^2 there, which
// is never above ell_a = objective(a).
double edge_aware_line_search(const Problem& p, const VecX& a, const VecX& b, double ell_a,
                              int refine, Scratch& s);

// solve_ngn with its statistics.
void solve(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
           Solution& sol, Stats* stats);

}  // namespace ngn
}  // namespace moreau
