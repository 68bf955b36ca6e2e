#pragma once
// Linear-algebra backend of ADMM (Alg. 6 line 6): factor D + R + shift I once per penalty, solve
// many times. Dense LLT for small or dense problems, sparse simplicial LDLT otherwise.
#include <optional>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>

#include "moreau/dynamics/problem.hpp"

namespace moreau {

class AdmmLinearSolver {
 public:
  enum class Backend { Dense, Sparse };
  // Picks the backend (force: -1 auto, 0 dense, 1 sparse) and copies D + R into it. Auto takes
  // dense when nl <= dense_max or when the block density of D exceeds 25%.
  void setup(const Problem& p, int force, int dense_max);
  // Factors D + R + shift I (shift > 0 makes it SPD). Returns false on failure.
  bool factor(double shift);
  // x = (D + R + shift I)^-1 b, for the last factor().
  void solve(const VecCRef& b, GrowVec& x);
  Backend backend() const { return backend_; }
  int factorizations() const { return factorizations_; }

 private:
  Backend backend_ = Backend::Dense;
  int n_ = 0;
  int factorizations_ = 0;
  GrowMat base_, A_;  // D + R and D + R + shift I, kept at the largest size seen
  // Factored in place in A_ (Eigen's in-place decomposition): an LLT<MatX> would own a copy that
  // reallocates whenever nl changes.
  std::optional<Eigen::LLT<Eigen::Ref<MatX>>> llt_;
  // Small dense systems: the explicit inverse of the last factor, formed after
  // kSolvesBeforeInverse solves with it; solve() is then one matrix-vector product.
  static constexpr int kInverseMaxRows = 128, kSolvesBeforeInverse = 8;
  GrowMat inverse_;
  int solves_ = 0;
  bool have_inverse_ = false;
  Eigen::SparseMatrix<double> S_;
  std::vector<Eigen::Triplet<double>> triplets_;
  std::vector<int> diag_index_;  // position of (i, i) in S_'s value array
  std::vector<double> diag_base_;
  // Pattern cache: the block structure of D the symbolic analysis was made for, and where each
  // lower-triangle scalar of D lands in S_ (same pattern => same ordering => same result).
  std::vector<int> pat_sizes_, pat_row_start_, pat_cols_;
  std::vector<int> value_pos_;
  bool same_pattern(const Problem& p) const;
  void build_pattern(const Problem& p);
  void fill_values(const Problem& p);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt_;
};

}  // namespace moreau
