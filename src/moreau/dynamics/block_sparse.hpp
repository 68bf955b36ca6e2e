#pragma once
// Block-sparse symmetric matrix over constraint blocks (the Delassus D = J M^-1 J^T, eq. 11):
// CSR over block rows, each stored block dense row-major. Blocks i, j are coupled iff they share
// a body, so nnz grows with the bodies' constraint degrees, not with nl^2.
#include <vector>

#include "moreau/math/growable.hpp"
#include "moreau/math/types.hpp"

namespace moreau {

class BlockSparse {
 public:
  using RowMajorMap =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
  using RowMajorMapMut =
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

  int rows() const { return n_; }
  int num_blocks() const { return static_cast<int>(size_.size()); }
  int block_offset(int i) const { return offset_[i]; }
  int block_size(int i) const { return size_[i]; }
  // Entries of block row i: [row_start(i), row_start(i+1)).
  int row_start(int i) const { return row_start_[i]; }
  int entry_col(int e) const { return col_[e]; }
  RowMajorMap entry(int e) const {
    return RowMajorMap(values_.data() + value_start_[e], size_[row_of_[e]], size_[col_[e]]);
  }
  RowMajorMapMut entry(int e) {
    return RowMajorMapMut(values_.data() + value_start_[e], size_[row_of_[e]], size_[col_[e]]);
  }
  int diagonal_entry(int i) const { return diag_[i]; }
  RowMajorMap diagonal(int i) const { return entry(diag_[i]); }
  int nnz_blocks() const { return static_cast<int>(col_.size()); }
  int nnz() const { return static_cast<int>(values_.size()); }
  // Every stored entry finite (one pass over the values).
  bool all_finite() const;

  // y = D x (x, y of length rows()); no allocation.
  void multiply(const double* x, double* y) const;
  // y_i += sum_j D_ij x_j for block row i only (eq. 13 restricted to a block); y_i points to
  // the block's own size(i) entries.
  // first_block > 0: only the columns of blocks j >= first_block (x zero on the others).
  void multiply_row_add(int i, const double* x, double* y_i, int first_block = 0) const;
  // Dense copy (for small problems and for solvers that factor D).
  void to_dense(MatX& out) const;
  void to_dense(GrowMat& out) const;

  // Structure. Called by the Problem builder: set the block partition, then add the coupled
  // (i, j) pairs of each row in increasing j, then finalize. Capacity is kept across calls.
  void begin(const int* sizes, int num_blocks);
  void push_entry(int i, int j);  // rows must be pushed in order i = 0, 1, ...
  void finalize();

 private:
  template <class Dense>
  void fill_dense(Dense& out) const;
  int n_ = 0;
  std::vector<int> offset_, size_;
  std::vector<int> row_start_, col_, row_of_, value_start_, diag_;
  std::vector<double> values_;
};

}  // namespace moreau
