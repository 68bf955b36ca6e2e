#pragma once
// The joint rows' block of the Delassus matrix, D_jj = J_j M^-1 J_j^T, factored by a block-sparse
// Cholesky (math/block_cholesky.hpp) with the analysis of its pattern kept between steps. The
// joint rows come first in a Problem (eq. 67). A kinematic loop makes D_jj singular: its redundant
// rows are combinations of the others, and the factorization drops them (a pivot below `drop`
// times its diagonal entry), which leaves the solution with zero impulse on them.
#include <cassert>
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "moreau/math/block_cholesky.hpp"

namespace moreau {

class JointDelassus {
 public:
  // A pivot below this fraction of its diagonal entry is a redundant row (BlockCholesky::factor).
  static constexpr double kDropPivot = 1e-10;
  // Factors p's D_jj. False when p has no joint rows, when a joint block follows another kind, or
  // when the factorization fails: drop = 0, a pivot that is not positive; drop > 0, a NaN (a pivot
  // at or below drop times its diagonal entry, negative ones included, is dropped).
  bool factor(const Problem& p, double drop);
  // p's leading joint blocks and rows (set by factor() whether or not it succeeded).
  int joint_blocks() const { return kj_; }
  int joint_rows() const { return nj_; }
  // The last factor(), only after it returned true.
  const BlockCholesky& chol() const {
    assert(cur_ >= 0);
    return chols_[cur_];
  }

 private:
  int kj_ = 0, nj_ = 0;
  // Joint-block patterns whose analysis is kept. A pattern not met before (islands of robots that
  // merge) is analyzed in its step, which then allocates.
  static constexpr int kPatterns = 8;
  std::vector<BlockCholesky> chols_;
  int cur_ = -1, next_ = 0;  // the last successful factor()'s (-1: none), the next to replace
  std::vector<int> jsizes_;  // the joint blocks' sizes and couplings: the pattern
  BlockCholesky::Pairs jpairs_;
};

}  // namespace moreau
