#include "moreau/dynamics/block_sparse.hpp"

#include <cassert>

namespace moreau {

void BlockSparse::begin(const int* sizes, int nbk) {
  size_.assign(sizes, sizes + nbk);
  offset_.resize(nbk);
  n_ = 0;
  for (int i = 0; i < nbk; ++i) {
    offset_[i] = n_;
    n_ += size_[i];
  }
  row_start_.assign(1, 0);
  col_.clear();
  row_of_.clear();
  value_start_.clear();
  diag_.assign(nbk, -1);
}

void BlockSparse::push_entry(int i, int j) {
  assert(i + 1 >= static_cast<int>(row_start_.size()));
  while (static_cast<int>(row_start_.size()) <= i)
    row_start_.push_back(static_cast<int>(col_.size()));
  if (i == j) diag_[i] = static_cast<int>(col_.size());
  const int start =
      value_start_.empty() ? 0 : value_start_.back() + size_[row_of_.back()] * size_[col_.back()];
  col_.push_back(j);
  row_of_.push_back(i);
  value_start_.push_back(start);
}

void BlockSparse::finalize() {
  const int nbk = num_blocks();
  while (static_cast<int>(row_start_.size()) <= nbk)
    row_start_.push_back(static_cast<int>(col_.size()));
  const size_t total =
      value_start_.empty() ? 0 : value_start_.back() + size_[row_of_.back()] * size_[col_.back()];
  values_.assign(total, 0.0);
}

void BlockSparse::multiply_row_add(int i, const double* x, double* y_i) const {
  const int si = size_[i];
  Eigen::Map<VecX> yi(y_i, si);
  for (int e = row_start_[i]; e < row_start_[i + 1]; ++e) {
    const int j = col_[e];
    yi.noalias() += RowMajorMap(values_.data() + value_start_[e], si, size_[j]) *
                    Eigen::Map<const VecX>(x + offset_[j], size_[j]);
  }
}

void BlockSparse::multiply(const double* x, double* y) const {
  for (int k = 0; k < n_; ++k) y[k] = 0.0;
  for (int i = 0; i < num_blocks(); ++i) multiply_row_add(i, x, y + offset_[i]);
}

template <class Dense>
void BlockSparse::fill_dense(Dense& out) const {
  out.setZero(n_, n_);
  for (int i = 0; i < num_blocks(); ++i)
    for (int e = row_start_[i]; e < row_start_[i + 1]; ++e)
      out.block(offset_[i], offset_[col_[e]], size_[i], size_[col_[e]]) = entry(e);
}

void BlockSparse::to_dense(MatX& out) const {
  fill_dense(out);
}

void BlockSparse::to_dense(GrowMat& out) const {
  fill_dense(out);
}

}  // namespace moreau
