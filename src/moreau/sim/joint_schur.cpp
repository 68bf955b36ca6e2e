#include "moreau/sim/joint_schur.hpp"

namespace moreau {

bool JointSchur::reduce(const Problem& p) {
  kj_ = 0;
  nj_ = 0;
  while (kj_ < p.num_blocks() && p.blocks[kj_].kind == RowKind::Joint) nj_ += p.blocks[kj_++].size;
  nc_ = p.nl - nj_;
  if (nj_ == 0 || p.R.size() != 0) return false;
  // D_S is dense: past ADMM's dense size (dense_max) the full problem's sparsity is worth more
  // (humanoid100: 3.4x slower with ~220 dense reduced rows than on the full sparse problem).
  if (nc_ > kMaxReducedRows) return false;
  for (int k = kj_; k < p.num_blocks(); ++k)
    if (p.blocks[k].kind == RowKind::Joint) return false;  // joints must come first (eq. 67)
  if (!p.has_dense) p.D.to_dense(dense_);
  const GrowMat& D = p.has_dense ? p.D_dense : dense_;  // top-left nl x nl is D
  // D_jj = L L^T (Cholesky, in place), then D_S = D_cc - Y^T Y with Y = L^-1 D_jc (one triangular
  // solve and a symmetric rank update: half the work of D_cj (D_jj^-1 D_jc)) and v_S = v_c - Y^T
  // L^-1 v_j.
  L_.resize(nj_, nj_);
  L_ = D.topLeftCorner(nj_, nj_);
  llt_.emplace(L_);
  if (llt_->info() != Eigen::Success) return false;
  // A (near) zero pivot: redundant joint rows (a kinematic loop) make D_jj singular and the
  // elimination ill-posed; the caller solves the full problem instead.
  const auto l = L_.diagonal();
  const double lmax = l.maxCoeff(), lmin = l.minCoeff();
  if (!(lmax > 0.0) || lmin * lmin <= 1e-12 * lmax * lmax) return false;
  const auto L = L_.triangularView<Eigen::Lower>();
  Y_.resize(nj_, nc_);
  Y_ = D.topRightCorner(nj_, nc_);
  L.solveInPlace(Y_);
  S_.resize(nc_, nc_);
  S_ = D.bottomRightCorner(nc_, nc_);
  S_.selfadjointView<Eigen::Lower>().rankUpdate(Y_.transpose(), -1.0);
  xj_.resize(nj_);
  xj_ = p.v_f.head(nj_);
  L.solveInPlace(xj_);

  // With joint rows only (nc_ = 0) everything below is empty: expand() alone solves the step,
  // lambda_j = -D_jj^-1 v_j.
  red_.dt = p.dt;
  red_.num_bodies = p.num_bodies;
  red_.nl = nc_;
  red_.blocks.assign(p.blocks.begin() + kj_, p.blocks.end());
  sizes_.clear();
  for (ConstraintBlock& b : red_.blocks) {
    b.offset -= nj_;
    sizes_.push_back(b.size);
  }
  red_.v_f.resize(nc_);
  red_.v_f.noalias() = p.v_f.tail(nc_);
  red_.v_f.noalias() -= Y_.transpose() * xj_;
  // D_S from its lower triangle, dense and block-sparse.
  red_.D_dense.resize(nc_, nc_);
  for (int c = 0; c < nc_; ++c)
    for (int r = 0; r < nc_; ++r) red_.D_dense(r, c) = r >= c ? S_(r, c) : S_(c, r);
  red_.has_dense = true;
  const int nbk = static_cast<int>(sizes_.size());
  red_.D.begin(sizes_.data(), nbk);
  for (int i = 0; i < nbk; ++i)
    for (int j = 0; j < nbk; ++j) red_.D.push_entry(i, j);
  red_.D.finalize();
  for (int e = 0; e < red_.D.nnz_blocks(); ++e) {
    int i = 0;
    while (red_.D.row_start(i + 1) <= e) ++i;
    const int j = red_.D.entry_col(e);
    red_.D.entry(e) = red_.D_dense.block(red_.D.block_offset(i), red_.D.block_offset(j),
                                         red_.D.block_size(i), red_.D.block_size(j));
  }
  red_.R.resize(0);
  red_.v_r.resize(0);
  return true;
}

void JointSchur::expand(const Problem& p, const VecCRef& lambda_c, GrowVec& lambda) {
  const GrowMat& D = p.has_dense ? p.D_dense : dense_;  // top-left nl x nl is D
  lambda.resize(p.nl);
  lambda.tail(nc_) = lambda_c;
  rj_.resize(nj_);
  rj_.noalias() = p.v_f.head(nj_);
  rj_.noalias() += D.topRightCorner(nj_, nc_) * lambda_c;
  xj_ = rj_;
  llt_->solveInPlace(xj_);
  lambda.head(nj_) = -xj_;
  // One step of iterative refinement: r = D_jj lambda_j + D_jc lambda_c + v_j.
  rj_.noalias() += D.topLeftCorner(nj_, nj_) * lambda.head(nj_);
  xj_ = rj_;
  llt_->solveInPlace(xj_);
  lambda.head(nj_) -= xj_;
}

}  // namespace moreau
