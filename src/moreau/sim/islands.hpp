#pragma once
// Islands of a step's Problem (docs/performance.md, "Islands"): bodies joined by a joint, limit or
// contact row form one island; the world joins nothing. D couples two blocks only through a shared
// body (eq. 11), so after a permutation it is block diagonal over the islands, and the NCP splits
// into one independent NCP per island, whose natural maps (eq. 163) together are the full one.
// The fast path solves each island on its own: a resting object is a few contact rows that Newton
// settles in a few iterations, whatever else the scene holds.
#include <vector>

#include "moreau/dynamics/problem.hpp"

namespace moreau {

class Islands {
 public:
  // Groups p's blocks by island, islands in the order of their first block, each island's blocks
  // in p's order (so joints still come first, eq. 67). Allocates nothing once it has seen p's size.
  void split(const Problem& p);
  int count() const { return static_cast<int>(first_.size()) - 1; }
  // Island k as a Problem of its own (dual view only: blocks, D, v_f; no M, J, u).
  void extract(const Problem& p, int k, Problem& out) const;
  // x_k <- x restricted to island k's rows of p (the Problem split() saw), and back.
  void gather(const Problem& p, int k, const VecCRef& x, GrowVec& x_k) const;
  void scatter(const Problem& p, int k, const VecCRef& x_k, VecRef x) const;

 private:
  int find(int i);
  std::vector<int> parent_;          // union-find over bodies
  std::vector<int> island_of_body_;  // root body -> island index, -1 unset
  std::vector<int> island_of_block_;
  std::vector<int> order_;  // blocks grouped by island: island k is order_[first_[k], first_[k+1])
  std::vector<int> first_{0};
  std::vector<int> count_;
  mutable std::vector<int> local_;  // p's block index -> index inside its island
  mutable std::vector<int> island_sizes_;
};

}  // namespace moreau
