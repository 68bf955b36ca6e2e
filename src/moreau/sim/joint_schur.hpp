#pragma once
// The fast simulation path (docs/performance.md, "The fast path"): the joint rows of the step's
// Problem eliminated exactly by a Schur complement of the Delassus matrix, leaving an NCP in the
// limit and contact rows only. With the rows ordered joints first (eq. 67),
//   D = [D_jj D_jc; D_cj D_cc],  v_f = [v_j; v_c],
// the joint rows' cone is R^m, so their complementarity is the equation D_jj lambda_j + D_jc
// lambda_c + v_j = 0, and the rest is the NCP of
//   D_S = D_cc - D_cj D_jj^-1 D_jc,  v_S = v_c - D_cj D_jj^-1 v_j
// in lambda_c (Schur complement; Baraff 1996 eliminates the same rows along the tree). Its velocity
// D_S lambda_c + v_S equals the full problem's on those rows, so its natural map is the full one's
// there; the joint rows' natural map is the residual of the equation, checked by the caller.
// A kinematic loop makes D_jj singular; its redundant rows are dropped from the factorization
// (dynamics/joint_delassus.hpp), D_jj^-1 becoming the inverse on the other rows. That solves the
// equation wherever it has a solution (v_j in D_jj's range: the builder makes the redundant rows'
// biases consistent, docs/dynamics.md), and D_S is the same for every such choice, since D_jc's
// columns lie in that range.
#include <vector>

#include "moreau/dynamics/joint_delassus.hpp"
#include "moreau/dynamics/problem.hpp"

namespace moreau {

class JointSchur {
 public:
  // The largest reduced problem built: D_S is dense (docs/performance.md, "The fast path").
  static constexpr int kMaxReducedRows = 192;
  // Builds reduced() from p. False when it does not apply: no joint rows, more than
  // kMaxReducedRows other rows, softening (R set), or D_jj, its redundant rows dropped, not
  // positive definite to working precision.
  bool reduce(const Problem& p);
  // reduce() in two stages: factor() checks that the elimination applies and factors D_jj (enough
  // for expand()); reduce_factored() then builds reduced(), only after a factor(p) that returned
  // true.
  // `given`: p's D_jj already factored (ProblemBuilder::joint_factor), used instead of factoring
  // it again; it must outlive the expansions.
  bool factor(const Problem& p, const JointDelassus* given = nullptr);
  void reduce_factored(const Problem& p);  // asserts factored_

  // The limit and contact rows of p with D_S and v_S (dual view only: no M, J, u); empty (nl = 0)
  // when p has joint rows only, whose answer expand() then gives with an empty lambda_c.
  const Problem& reduced() const { return red_; }
  // p's joint rows and other (limit and contact) rows, counted by the last factor() or reduce(),
  // whether or not it applied (reduced().nl after a reduce()).
  int joint_rows() const { return nj_; }
  int other_rows() const { return nc_; }
  // The full impulse [lambda_j; lambda_c] with lambda_j = -D_jj^-1 (v_j + D_jc lambda_c), refined
  // once against the full D (iterative refinement: the joint rows' residual then sits at round-off
  // of the refined solve). lambda gets p.nl entries. Only after a factor(p) or reduce(p) that
  // returned true.
  void expand(const Problem& p, const VecCRef& lambda_c, GrowVec& lambda);

  // Wedged contacts (docs/performance.md, "Wedged contacts"): a contact whose D_S block is
  // singular along directions that meet the interior of its friction cone. Impulses along them
  // change no velocity (the joints carry them), and the contact's velocity there is v_S's,
  // whatever the impulses: where v_S points against the cone (a bias asking a penetrating
  // contact to separate along a direction no motion gives), the NCP has no solution (the strict
  // feasibility of Acary, Cadoux, Lemarechal & Malick 2011 fails; a hull across a two-hinge hip).
  // unwedge() moves v_S's component in those directions to the nearest one the cone admits, in
  // reduced() and in p alike (v_S = v_c - ..., the same shift), and returns the count of contacts
  // it shifted. Only after reduce_factored(p).
  int unwedge(Problem& p);
  // A singular direction: an eigenvalue of D_S's block at most this fraction of the trace of D's.
  static constexpr double kWedgeEigen = 1e-8;
  // Contacts wedged together: D_S on the contact rows singular along directions N that meet the
  // interior of the contacts' cones' product K where no contact's block alone is (a chain's tip
  // folded back onto its own links, touching them at two points or more: each point alone can
  // move, together they cannot along N). v_S's component y in N must lie in the dual of C = N n K
  // within N; unwedge_together() moves it to the nearest point there, y + P_C(-y) (Moreau's
  // decomposition; P_C by Dykstra's alternating projections), in reduced() and in p alike, and
  // returns the count of contacts it shifted. A singular direction as in unwedge(), against the
  // largest of the contacts' traces; 2 to kWedgeTogetherMax contacts. Only after
  // reduce_factored(p); the fast path calls it where the reduced NCP's solve stopped above tol,
  // and before the solve on the steps after one where it shifted v_S.
  int unwedge_together(Problem& p);
  static constexpr int kWedgeTogetherMax = 32;

 private:
  // The shift that moves w, in the plane of e1, e2, into the dual of K_mu's sector there.
  static Vec3 dual_shift(const Vec3& e1, const Vec3& e2, const Vec3& w, double mu);
  int nj_ = 0, nc_ = 0, kj_ = 0;       // joint rows, other rows, joint blocks
  bool factored_ = false;              // the last factor() returned true
  JointDelassus own_;                  // P D_jj P^T = L L^T, the redundant rows dropped
  const JointDelassus* jd_ = nullptr;  // the last factor()'s: own_ or the one it was given
  GrowMat Wt_;                         // (L^-1 P D_jc)^T, nc x nj: D_cj D_jj^-1 D_jc = Wt Wt^T
  std::vector<int> wlo_, whi_;         // per joint block: the range of W's nonzero columns
  std::vector<int> coff_, csize_;      // the other blocks' offsets and sizes in lambda_c
  std::vector<int> contacts_;          // unwedge_together's: the reduced blocks of its contacts
  // W's columns (and D_S's rows) in an order where a joint's columns are mostly contiguous: each
  // other block's offset there, and its sort key (reduce_factored).
  std::vector<int> woff_, wkey_, worder_;
  std::vector<int> post_, child_, sibling_, stack_;  // the elimination tree's postorder
  GrowMat S_;                                        // D_S, lower triangle, in W's column order
  GrowVec vs_;                                       // W^T L^-1 P v_j, in W's column order
  GrowVec xj_, rj_, yj_;
  std::vector<int> sizes_;
  Problem red_;
};

}  // namespace moreau
