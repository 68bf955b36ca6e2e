#include "moreau/solvers/admm_linear.hpp"

#include <algorithm>

namespace moreau {

void AdmmLinearSolver::setup(const Problem& p, int force, int dense_max) {
  n_ = p.nl;
  factorizations_ = 0;
  const bool has_r = p.R.size() == p.nl;
  double filled = 0.0;  // stored entries of D / nl^2
  if (n_ > 0) filled = double(p.D.nnz()) / (double(n_) * double(n_));
  if (force == 0)
    backend_ = Backend::Dense;
  else if (force == 1)
    backend_ = Backend::Sparse;
  else
    backend_ = (n_ <= dense_max || filled > 0.25) ? Backend::Dense : Backend::Sparse;
  if (backend_ == Backend::Dense) {
    if (p.has_dense)
      base_ = p.D_dense;
    else
      p.D.to_dense(base_);
    if (has_r) base_.diagonal() += p.R;
    return;
  }
  if (!same_pattern(p)) build_pattern(p);
  fill_values(p);
}

bool AdmmLinearSolver::same_pattern(const Problem& p) const {
  const BlockSparse& D = p.D;
  const int nbk = D.num_blocks();
  if (static_cast<int>(pat_sizes_.size()) != nbk || S_.rows() != n_ ||
      static_cast<int>(pat_cols_.size()) != D.nnz_blocks())
    return false;
  for (int i = 0; i < nbk; ++i)
    if (pat_sizes_[i] != D.block_size(i) || pat_row_start_[i] != D.row_start(i)) return false;
  for (int e = 0; e < D.nnz_blocks(); ++e)
    if (pat_cols_[e] != D.entry_col(e)) return false;
  return true;
}

// Lower triangle of D plus every diagonal entry, its symbolic analysis, and the value map.
void AdmmLinearSolver::build_pattern(const Problem& p) {
  const BlockSparse& D = p.D;
  triplets_.clear();
  for (int i = 0; i < D.num_blocks(); ++i)
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const int r0 = D.block_offset(i), c0 = D.block_offset(D.entry_col(e));
      for (int a = 0; a < D.block_size(i); ++a)
        for (int c = 0; c < D.block_size(D.entry_col(e)); ++c)
          if (r0 + a >= c0 + c) triplets_.emplace_back(r0 + a, c0 + c, 0.0);
    }
  const size_t n_entries = triplets_.size();
  for (int i = 0; i < n_; ++i) triplets_.emplace_back(i, i, 0.0);
  S_.resize(n_, n_);
  S_.setFromTriplets(triplets_.begin(), triplets_.end());
  S_.makeCompressed();
  value_pos_.resize(n_entries);
  for (size_t k = 0; k < n_entries; ++k) {
    const int r = triplets_[k].row(), c = triplets_[k].col();
    const int* first = S_.innerIndexPtr() + S_.outerIndexPtr()[c];
    const int* last = S_.innerIndexPtr() + S_.outerIndexPtr()[c + 1];
    value_pos_[k] = static_cast<int>(std::lower_bound(first, last, r) - S_.innerIndexPtr());
  }
  diag_index_.assign(n_, -1);
  for (int c = 0; c < n_; ++c) {
    const int* first = S_.innerIndexPtr() + S_.outerIndexPtr()[c];
    const int* last = S_.innerIndexPtr() + S_.outerIndexPtr()[c + 1];
    diag_index_[c] = static_cast<int>(std::lower_bound(first, last, c) - S_.innerIndexPtr());
  }
  ldlt_.analyzePattern(S_);
  pat_sizes_.resize(D.num_blocks());
  pat_row_start_.resize(D.num_blocks());
  for (int i = 0; i < D.num_blocks(); ++i) {
    pat_sizes_[i] = D.block_size(i);
    pat_row_start_[i] = D.row_start(i);
  }
  pat_cols_.resize(D.nnz_blocks());
  for (int e = 0; e < D.nnz_blocks(); ++e) pat_cols_[e] = D.entry_col(e);
}

// Values of D + R into the cached pattern (same enumeration order as build_pattern).
void AdmmLinearSolver::fill_values(const Problem& p) {
  const BlockSparse& D = p.D;
  const bool has_r = p.R.size() == p.nl;
  std::fill(S_.valuePtr(), S_.valuePtr() + S_.nonZeros(), 0.0);
  size_t k = 0;
  for (int i = 0; i < D.num_blocks(); ++i)
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const auto B = D.entry(e);
      const int r0 = D.block_offset(i), c0 = D.block_offset(D.entry_col(e));
      for (int a = 0; a < B.rows(); ++a)
        for (int c = 0; c < B.cols(); ++c)
          if (r0 + a >= c0 + c) S_.valuePtr()[value_pos_[k++]] += B(a, c);
    }
  diag_base_.resize(n_);
  for (int c = 0; c < n_; ++c) {
    if (has_r) S_.valuePtr()[diag_index_[c]] += p.R[c];
    diag_base_[c] = S_.valuePtr()[diag_index_[c]];
  }
}

bool AdmmLinearSolver::factor(double shift) {
  ++factorizations_;
  if (n_ == 0) return true;
  if (backend_ == Backend::Dense) {
    A_ = base_;
    A_.diagonal().array() += shift;
    llt_.emplace(A_);
    solves_ = 0;
    have_inverse_ = false;
    return llt_->info() == Eigen::Success;
  }
  for (int i = 0; i < n_; ++i) S_.valuePtr()[diag_index_[i]] = diag_base_[i] + shift;
  ldlt_.factorize(S_);
  return ldlt_.info() == Eigen::Success;
}

void AdmmLinearSolver::solve(const VecCRef& b, GrowVec& x) {
  if (n_ == 0) return;
  if (backend_ == Backend::Dense) {
    // Two triangular solves cost about 5 products with the inverse at these sizes (n = 30: 0.57
    // against 0.11 us), which costs about n/5 solves to form: formed once a factor has served
    // kSolvesBeforeInverse solves (the spectral penalty refactors every few dozen iterations).
    if (!have_inverse_ && n_ <= kInverseMaxRows && ++solves_ > kSolvesBeforeInverse) {
      inverse_.resize(n_, n_);
      inverse_.setIdentity();
      llt_->solveInPlace(inverse_);
      have_inverse_ = true;
    }
    if (have_inverse_) {
      x.resize(n_);
      x.noalias() = inverse_ * b;
      return;
    }
    x = b;
    llt_->solveInPlace(x);
  } else {
    x = ldlt_.solve(b);
  }
}

}  // namespace moreau
