#pragma once
// "prox-fp": the prox fixed-point iteration of Schindler, Nguyen & Trinkle (IROS 2011, eq. 9-12,
// 25-26, Sec. III and V-A): per block
//   joints   lambda_B <- lambda_B - r_B v_B                       (prox_R = identity)
//   limits   lambda_U <- max(0, lambda_U - r_U v_U)                (prox_{R+})
//   contacts lambda_N <- max(0, lambda_N - r_N v_N), then
//            lambda_T <- prox_{disk(mu lambda_N)}(lambda_T - r_T v_T)  (normal first, interleaved)
// with v = (D + R) lambda + v_f and r = omega / G_ii (G = D + R; joints: omega G_BB^-1).
// Gauss-Seidel by default, Jacobi with param "jacobi" = 1. No adaptation of r: the paper's
// failure modes (divergence, the period-2 cycle for r > 2/G) are reported, not hidden.
#include "moreau/solvers/solver.hpp"

namespace moreau {

// Parameters: "omega" (1; r_i = omega / G_ii), "r" (0 = off; > 0 overrides every r_i, the
// paper's single r), "jacobi" (0), "diverge_factor" (1e8: natural map above this times the
// initial one is divergence). Status: Converged when the natural map (eq. 163) <= tol; Diverged
// when it grows past the bound or becomes non-finite; Failed when a period-2 cycle is detected;
// MaxIterations otherwise.
void solve_prox_fp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                   SolverWorkspace& ws, Solution& sol);

// `sweeps` Gauss-Seidel prox sweeps with omega = 1 from lambda (in place); ngn uses them to
// leave a local minimum of its merit function. Uses the "prox-fp" workspace slot.
void prox_fp_sweeps(const Problem& p, VecRef lambda, int sweeps, SolverWorkspace& ws);

// Shared by prox-fp, lemke and ngn: a mis-sized or non-finite Problem (Problem::validate, and a
// Delassus partition that differs from the blocks) sets status Failed with a message naming the
// solver and the defect, lambda = 0, and returns true.
bool reject_invalid_problem(const char* solver, const Problem& p, Solution& sol);

}  // namespace moreau
