#pragma once
// The polytope-weight QP of maximum-dissipation contact (Pan & Hauser 2021, eq. 5 and 8): the
// contact force at point x is f_x = v_x w_x with convex-combination weights w_x >= 0,
// 1^T w_x <= 1, so the search-direction QP of NMDP (eq. 8, Q = P^T grad^2 K P + (2/gamma) I) and
// the single QP of the NE-MDP baseline (Hessian dt^2 N^T H^-1 N, only semidefinite) both read
//
//   minimize 1/2 w^T Q w + c^T w   s.t.  w >= 0,  sum(w[g]) <= 1 for every group g
//
// with one group of contiguous weights per contact. The feasible set is a product of simplices,
// hence bounded: the QP always has a solution, also for a semidefinite Q.
//
// Algorithm: the primal active-set method (Nocedal & Wright 2006, Alg. 16.3). The working set
// holds active bounds w_i = 0 and active group sums; each iteration solves the equality-
// constrained QP on the free weights in the null space of the active group sums (one free weight
// per active group is eliminated, Nocedal & Wright Sec. 16.2), whose reduced Hessian Z^T Q Z is
// factorized by a Cholesky decomposition with diagonal pivoting. A rank-deficient reduced
// Hessian (semidefinite Q) is handled exactly: if the reduced gradient has a component in its
// null space, the step is that zero-curvature descent direction, followed until the first
// constraint blocks it (it always does: the feasible set is bounded); otherwise the minimum-
// residual particular solution is taken. The working set starts from the weights passed in (the
// warm start: its zero weights and saturated groups), which plays the role of the hot start of
// qpOASES that the paper used (Pan & Hauser 2021, Sec. VI).
#include <span>
#include <vector>

#include "moreau/math/types.hpp"

namespace moreau::nmdp {

struct SimplexQpSettings {
  int max_iterations = 200;  // active-set iterations (one equality-constrained solve each)
  // Stationarity: a step with |p|_inf <= tolerance is zero (weights are dimensionless, in [0,1]).
  // Optimality: multipliers >= -tolerance * max(1, |Q|_max, |c|_inf). A group sum counts as
  // active in the warm start when it is >= 1 - tolerance.
  double tolerance = 1e-12;
  // Pivots of the reduced Hessian below rank_tolerance * (its largest diagonal entry) are zero:
  // the reduced Hessian is treated as singular there (semidefinite Q).
  double rank_tolerance = 1e-12;
};

struct SimplexQpResult {
  bool converged = false;  // KKT conditions hold within the tolerances
  int iterations = 0;      // active-set iterations used
  double objective = 0.0;  // 1/2 w^T Q w + c^T w at the returned w
  int active_bounds = 0;   // weights at their bound w_i = 0 at exit
  int active_groups = 0;   // groups with sum(w[g]) = 1 in the working set at exit
};

// Euclidean projection of w onto {w >= 0, sum(w[g]) <= 1 for every group} (clamp each group at
// zero; if the clamped sum exceeds 1 by more than rounding, 4 eps per weight, project onto the
// simplex sum = 1 by the sort-based algorithm of Held, Wolfe & Crowder 1974). scratch is resized
// to the largest group.
void project_simplex_groups(std::span<const int> group_sizes, VecX& w,
                            std::vector<double>& scratch);

class SimplexQp {
 public:
  // minimize 1/2 w^T Q w + c^T w subject to w >= 0 and sum(w[g]) <= 1 for every group g
  // (groups are contiguous ranges of w; group_sizes sums to w.size()). Q symmetric positive
  // semidefinite (positive definite in NMDP's search direction, Pan & Hauser eq. 8). `w` holds
  // the warm start on entry (projected onto the feasible set if infeasible; reset to 0 if its
  // size differs from c's or it is not finite) and the solution on exit. Throws
  // std::invalid_argument on inconsistent sizes. Repeated solves of one size do not allocate.
  SimplexQpResult solve(const MatX& Q, const VecX& c, std::span<const int> group_sizes, VecX& w,
                        const SimplexQpSettings& s = {});

 private:
  void resize(int n, int groups);
  // Builds the working set from w (zero weights, saturated groups).
  void init_working_set(std::span<const int> group_sizes, const VecX& w, double tol);
  // Equality-constrained step p on the working set from gradient g; returns false when the
  // reduced Hessian is singular and the step is a zero-curvature descent ray (unbounded length).
  bool eqp_step(const MatX& Q, double rank_tol, double ray_tol);

  // Per weight: its group, and whether its bound w_i = 0 is in the working set.
  std::vector<int> group_of_;
  std::vector<char> at_bound_;
  // Per group: first weight, size, and whether its sum constraint is in the working set.
  std::vector<int> group_begin_;
  std::vector<int> group_size_;
  std::vector<char> group_active_;
  // Reduced problem: reduced variable r moves weight free_[r] by y_r and the eliminated weight
  // pivot_[r] (-1 when its group is inactive) by -y_r.
  std::vector<int> free_;
  std::vector<int> pivot_;
  std::vector<int> perm_;  // diagonal pivoting of the reduced Cholesky factor
  MatX H_;                 // reduced Hessian Z^T Q Z, factorized in place (top-left m x m)
  VecX g_;                 // gradient Q w + c
  VecX p_;                 // step in w
  VecX gr_;                // reduced gradient Z^T g (permuted), then scratch
  VecX y_;                 // reduced step
  std::vector<double> scratch_;
};

}  // namespace moreau::nmdp
