#pragma once
// "lemke": the velocity-level Stewart-Trinkle LCP with a friction pyramid of n_d directions per
// contact (Stewart & Trinkle 1996), solved by Lemke's pivoting (Lemke 1965) with lexicographic
// tie-breaking. Joint rows are eliminated (Schur complement with a pseudo-inverse of D_JJ);
// limits are one LCP pair each; a contact is n_d + 2 pairs (c_n, beta_1..n_d, sigma).
#include <vector>

#include "moreau/solvers/solver.hpp"

namespace moreau {

// Parameters: "directions" (n_d, 8; >= 3), "pivot_tol" (1e-6, relative to the entering column),
// "pivot_factor" (10: at most pivot_factor * n pivots for an LCP of size n; max_iters does not
// apply). The LCP is scaled per contact (Jacobi on the Schur complement) before pivoting.
// Status: Converged with a solution; Failed on ray termination or the pivot cap (message says
// which); the LCP residual max_i |min(z_i, w_i)| of the unscaled LCP is Solution::residual.
void solve_lemke(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                 Solution& sol);

namespace lemke {

enum class Result : uint8_t { Solution, RayTermination, MaxPivots };
const char* result_name(Result r);

// Scratch of the pivoting: B^-1, basic values, basis labels. Sized on first use; reused.
struct Tableau {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>
      Binv;                // B^-1, n x n: pivots are row operations
  VecX xB, col, lex;       // basic values, entering column, scratch
  std::vector<int> basis;  // variable in each row: 0..n-1 w_i, n..2n-1 z_j, 2n z0
  std::vector<int> ties;
  MatX basis_matrix;  // for the final refinement
  VecX refined;
};

// Solves w = M z + q, 0 <= z perp w >= 0 by Lemke's scheme with covering vector d > 0 (Lemke
// 1965; d = 1 is the classic choice).
// Returns the outcome; z (size n) is the solution when Result::Solution. pivots counts pivots.
// pivot_tol is relative: entries below pivot_tol * max |column| are not pivot candidates.
Result solve_lcp(const MatX& M, const VecX& q, const VecX& d, int max_pivots, double pivot_tol,
                 Tableau& t, VecX& z, int* pivots);

// max_i |min(z_i, (M z + q)_i)|: zero exactly at LCP solutions.
double lcp_residual(const MatX& M, const VecX& q, const VecX& z);

}  // namespace lemke
}  // namespace moreau
