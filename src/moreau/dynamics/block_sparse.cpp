#include "moreau/dynamics/block_sparse.hpp"

#include <array>
#include <cassert>
#include <cmath>
#include <utility>

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

namespace {
// y += A x for one stored block, row-major, with the sizes known at compile time for every pair up
// to 6 x 6 (contacts 3, limits 1, joints 1 to 6; kGemv below): Eigen's dynamic-size product costs
// more than the arithmetic at these sizes (block rows of 30 to 40 rows: 1.6 us per product before,
// docs/performance.md).
template <int R, int C>
inline void block_gemv(const double* a, const double* x, double* y) {
  for (int r = 0; r < R; ++r) {
    double acc = 0.0;
    for (int c = 0; c < C; ++c) acc += a[r * C + c] * x[c];
    y[r] += acc;
  }
}
inline void block_gemv(int rows, int cols, const double* a, const double* x, double* y) {
  for (int r = 0; r < rows; ++r) {
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) acc += a[r * cols + c] * x[c];
    y[r] += acc;
  }
}

// The products of blocks up to 6 x 6 (joints: 1 to 6 rows), by size, at compile time; the same
// operations in the same order as the loop above.
using BlockGemv = void (*)(const double*, const double*, double*);
template <int R, int... C>
constexpr std::array<BlockGemv, sizeof...(C)> gemv_row(std::integer_sequence<int, C...>) {
  return {&block_gemv<R, C + 1>...};
}
template <int... R>
constexpr std::array<std::array<BlockGemv, 6>, 6> gemv_table(std::integer_sequence<int, R...>) {
  return {gemv_row<R + 1>(std::make_integer_sequence<int, 6>{})...};
}
constexpr auto kGemv = gemv_table(std::make_integer_sequence<int, 6>{});
}  // namespace

void BlockSparse::multiply_row_add(int i, const double* x, double* y_i, int first_block) const {
  const int si = size_[i];
  for (int e = row_start_[i]; e < row_start_[i + 1]; ++e) {
    const int j = col_[e], sj = size_[j];
    if (j < first_block) continue;
    const double* a = values_.data() + value_start_[e];
    const double* xj = x + offset_[j];
    // The contacts' and limits' pairs inline, the joints' through the table.
    if (si == 3 && sj == 3)
      block_gemv<3, 3>(a, xj, y_i);
    else if (si == 3 && sj == 1)
      block_gemv<3, 1>(a, xj, y_i);
    else if (si == 1 && sj == 3)
      block_gemv<1, 3>(a, xj, y_i);
    else if (si == 1 && sj == 1)
      y_i[0] += a[0] * xj[0];
    else if (si <= 6 && sj <= 6 && si > 0 && sj > 0)
      kGemv[si - 1][sj - 1](a, xj, y_i);
    else
      block_gemv(si, sj, a, xj, y_i);
  }
}

bool BlockSparse::all_finite() const {
  // 0 x is NaN exactly where x is NaN or infinite, and a sum with a NaN term is NaN: one
  // vectorized pass (Eigen's allFinite() compares x - x elementwise, 10x slower on a reduced
  // problem's dense D).
  const Eigen::Map<const VecX> v(values_.data(), static_cast<Eigen::Index>(values_.size()));
  return std::isfinite((0.0 * v.array()).sum());
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
