#pragma once
// "nsn": non-smooth (semismooth) Newton on the natural map of the NCP (report eq. 163),
//   F(lambda) = lambda - P_K(lambda - rho (v + Gamma(v))),  v = A lambda + v_f,  A = D + R,
// with one scale rho_b = rho_scale / (mean diagonal of A_bb) per block, as Alart & Curnier (1991)
// scale their function: per block, lambda_b = P_K(lambda_b - rho_b w_b) holds for one rho_b > 0 iff
// it holds for all, so F = 0 exactly where the unscaled natural map (the stopping test) is 0.
// Each iteration takes an element H of F's generalized Jacobian (Qi & Sun 1993) with A + eps I in
// place of A (a proximal term, docs/solvers.md), solves H d = -F by LU on the rows that are not
// unit rows (separating contacts and inactive limits give d_i = -F_i outright), and backtracks on
// 1/2 |F|^2 (nonmonotone Armijo); where the LU fails, the Gauss-Newton step (H^T H + 1e-12 max
// diag I) d = -H^T F. Dense (A is D_dense itself where the Problem has it and no R) for problems of
// at most dense_rows rows or with a dense D; above, the Newton system is assembled from D's stored
// blocks and factored by KLU (SuiteSparse; Eigen's SparseLU in a build without it) (a pile's D is
// sparse: RockPile's 1389 rows hold 1.7%
// nonzeros), with no Gauss-Newton fallback (a failed factorization grows eps instead). Made for
// problems solved many times from a warm start (the fast path's reduced NCP and contact islands,
// docs/performance.md), where it converges in a few iterations.
#include "moreau/solvers/solver.hpp"

namespace moreau {

// Parameters: "rho_scale" (1), "dense_rows" (96: above, the sparse system where D is sparse),
// "ls_steps" (30 halvings of the Armijo backtracking). Status: Converged when the natural map (eq.
// 163) <= tol; MaxIterations at the cap or when the line search finds no decrease (the best iterate
// is returned); Failed when the dense Newton system cannot be factored; Diverged on non-finite
// iterates.
void solve_nsn(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
               Solution& sol);

namespace nsn {
// D as nsn's sparse Newton system needs it: its block partition the Problem's blocks, and under a
// quarter of its entries stored (a reduced NCP's D_S, all blocks coupled, is not).
bool sparse_delassus(const Problem& p);
// An element of the generalized Jacobian of P_{K_mu} at y (moreau order [t, o, n]): I inside
// K_mu, 0 inside its polar cone, the derivative of the projection onto the cone's surface between.
Mat3 coulomb_projection_jacobian(const Vec3& y, double mu);
}  // namespace nsn

}  // namespace moreau
