#pragma once
// Sparse Cholesky P A P^T = L L^T of a symmetric positive definite matrix made of small dense
// blocks (a joint's rows: at most 6 per block), in a minimum-degree order of the blocks; of a
// positive semidefinite one with factor(drop), its dependent rows dropped.
//
// The Delassus matrix of joint rows, J M^-1 J^T, couples two joints iff they share a body. Along a
// kinematic tree that graph is chordal, and eliminated from the leaves it fills nothing (the
// elimination of Baraff 1996, "Linear-time dynamics using Lagrange multipliers"): the factorization
// costs a few small dense products per joint instead of the dense (rows^3)/3. The greedy minimum
// degree order takes the leaves first on the humanoids (no fill); on other trees it may eliminate
// an inner joint early and fill a block, and kinematic loops fill what their elimination creates:
// the symbolic phase finds that fill, so the factor is exact either way.
//
// Use: analyze() once per pattern (same_pattern() tells whether the last one still holds), then per
// matrix: zero(), set() every block of the pattern, factor(), and the solves. No allocation after
// analyze().
#include <utility>
#include <vector>

#include "moreau/math/types.hpp"

namespace moreau {

class BlockCholesky {
 public:
  using Pairs = std::vector<std::pair<int, int>>;  // coupled blocks (i, j), i != j, either order
  // Chooses the elimination order and the fill for blocks of the given sizes coupled by `pairs`.
  void analyze(const std::vector<int>& sizes, const Pairs& pairs);
  // Whether analyze() was last called with this pattern.
  bool same_pattern(const std::vector<int>& sizes, const Pairs& pairs) const {
    return analyzed_ && sizes == sizes_ && pairs == pairs_;
  }
  int rows() const { return n_; }
  int num_blocks() const { return static_cast<int>(sizes_.size()); }
  // Row offset of block i (original numbering) in the permuted order the solves work in.
  int permuted_offset(int i) const { return off_[pos_[i]]; }
  // Position of block i in the elimination order.
  int position(int i) const { return pos_[i]; }
  // The elimination tree: the parent of the block at position b (the first row block of L's
  // column b, a later position), -1 for a root.
  int etree_parent(int b) const { return col_ptr_[b] < col_ptr_[b + 1] ? row_[col_ptr_[b]] : -1; }

  // Numeric phase: zero() every stored block, add() A_ij for each block of the pattern, both (i, j)
  // and (j, i) (the one in the permuted lower triangle is kept, the other ignored: lower() tells
  // which), then factor(). add() accumulates into the
  // block's top-left corner (Aij may be smaller than the block).
  void zero();
  bool lower(int i, int j) const { return pos_[i] >= pos_[j]; }
  template <class Block>
  void add(int i, int j, const Block& Aij) {
    if (!lower(i, j)) return;
    double* L = block_at(pos_[i], pos_[j]);
    if (L == nullptr) return;  // not in the pattern given to analyze()
    const int ra = psize_[pos_[i]];
    for (int c = 0; c < Aij.cols(); ++c)
      for (int r = 0; r < Aij.rows(); ++r) L[r + c * ra] += Aij(r, c);
  }
  // A_ii(r, r) += v (r a row of block i).
  void add_diagonal(int i, int r, double v) {
    const int a = pos_[i];
    values_[diag_[a] + r + r * psize_[a]] += v;
  }
  // The largest diagonal entry of A (before factor()).
  double max_diagonal() const;
  // drop = 0: false on a pivot that is not positive. drop > 0 (positive semidefinite A, e.g. the
  // Delassus matrix of redundant rows): a pivot d <= drop A_kk is dropped, its row taken as a
  // combination of the rows before it; L's column is 0 there and the solves give x with 0 in the
  // dropped rows (for b in A's range, a solution of A x = b). dropped() counts them.
  bool factor(double drop = 0.0);
  int dropped() const { return dropped_; }
  // Whether row r of block i (original numbering) was dropped by the last factor().
  bool dropped_row(int i, int r) const { return inv_[off_[pos_[i]] + r] == 0.0; }
  // The smallest and the largest diagonal entry of L, dropped pivots left out (a conditioning
  // check: their ratio squared bounds the pivots' ratio).
  double min_pivot() const { return min_pivot_; }
  double max_pivot() const { return max_pivot_; }

  // Solves on vectors in the permuted order: y <- L^-1 y, y <- L^-T y.
  void forward(double* y) const;
  void backward(double* y) const;
  // x <- A^-1 x in the original order (scratch of rows() entries).
  void solve(double* x, double* scratch) const;
  // B <- L^-1 B for B (rows() x m) stored transposed: X = B^T, m x rows() column-major with leading
  // dimension ld (B's row r, in the permuted order, is X's column r: contiguous). lo[b], hi[b]
  // bound the nonzero entries of the rows of B's block at position b ([lo, hi) of X's rows, empty
  // when lo >= hi); they grow to the ranges the solve fills (a column reaches the blocks on its
  // path up the elimination tree).
  void forward_transposed(double* X, int ld, std::vector<int>& lo, std::vector<int>& hi) const;
  // Row blocks of L's column b (positions > b) and their storage.
  int column_begin(int b) const { return col_ptr_[b]; }
  int column_end(int b) const { return col_ptr_[b + 1]; }
  int entry_row(int e) const { return row_[e]; }
  int block_size_at(int b) const { return psize_[b]; }
  int offset_at(int b) const { return off_[b]; }

 private:
  double* block_at(int a, int b);  // L's block (a, b), positions a >= b; nullptr if not stored
  bool analyzed_ = false;
  int n_ = 0;
  std::vector<int> sizes_;
  Pairs pairs_;
  std::vector<int> order_, pos_;          // order_[b]: the block eliminated b-th; pos_ its inverse
  std::vector<int> psize_, off_;          // size and row offset by position
  std::vector<int> diag_;                 // storage of L_bb (column-major)
  std::vector<int> col_ptr_, row_, val_;  // L's column b: rows row_[e] > b, storage val_[e]
  // The right-looking update of column b: L_xy -= L_xb L_yb^T for target storage upd_tgt_[u] of the
  // entry pair (upd_x_[u], upd_y_[u]) of column b, u in [upd_ptr_[b], upd_ptr_[b + 1]).
  std::vector<int> upd_ptr_, upd_x_, upd_y_, upd_tgt_;
  std::vector<double> values_;
  std::vector<double> inv_;  // 1 / L's diagonal (0 where dropped), by permuted row
  std::vector<double> a0_;   // A's diagonal before factor(), by permuted row
  int dropped_ = 0;
  double min_pivot_ = 0.0, max_pivot_ = 0.0;
};

}  // namespace moreau
