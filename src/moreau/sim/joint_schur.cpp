#include "moreau/sim/joint_schur.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "moreau/ncp/cones.hpp"

namespace moreau {

bool JointSchur::reduce(const Problem& p) {
  if (!factor(p)) return false;
  reduce_factored(p);
  return true;
}

bool JointSchur::factor(const Problem& p, const JointDelassus* given) {
  factored_ = false;
  kj_ = 0;
  nj_ = 0;
  while (kj_ < p.num_blocks() && p.blocks[kj_].kind == RowKind::Joint) nj_ += p.blocks[kj_++].size;
  nc_ = p.nl - nj_;
  if (nj_ == 0 || p.R.size() != 0) return false;
  // D_S is dense: past ADMM's dense size (dense_max) the full problem's sparsity is worth more
  // (humanoid100: 3.4x slower with ~220 dense reduced rows than on the full sparse problem).
  if (nc_ > kMaxReducedRows) return false;
  if (given != nullptr) {
    assert(given->joint_rows() == nj_);
    jd_ = given;
  } else {
    if (!own_.factor(p, JointDelassus::kDropPivot)) return false;
    jd_ = &own_;
  }
  // The redundant rows of a loop are dropped; a kept pivot far below the largest (D_jj
  // ill-conditioned beyond its redundancy) would make the elimination imprecise: the caller then
  // solves the full problem.
  const double lmax = jd_->chol().max_pivot(), lmin = jd_->chol().min_pivot();
  factored_ = lmax > 0.0 && lmin * lmin > 1e-12 * lmax * lmax;
  return factored_;
}

void JointSchur::reduce_factored(const Problem& p) {
  assert(factored_);
  const BlockSparse& D = p.D;
  const BlockCholesky& chol = jd_->chol();
  // W = L^-1 P D_jc, block by block along the elimination tree (a column reaches the joints
  // between its bodies and the root), then D_S = D_cc - W^T W and v_S = v_c - W^T L^-1 P v_j.
  const int ncb = p.num_blocks() - kj_;
  coff_.resize(ncb);
  csize_.resize(ncb);
  for (int c = 0; c < ncb; ++c) {
    coff_[c] = p.blocks[kj_ + c].offset - nj_;
    csize_[c] = p.blocks[kj_ + c].size;
  }
  // W's column of a block is nonzero on the joints it touches and, by the fill, on their
  // ancestors in the elimination tree. Ordered by the postorder of the first joint they touch, a
  // subtree's columns (a limb's contacts and limits) are contiguous, so that the row block of W
  // of each joint spans its subtree's columns only, not all of them, in the rank updates and the
  // solve below (G1 29: 150 -> 102 us per reduction on 130 problems of its fall).
  const int nb = chol.num_blocks();
  post_.assign(nb, 0);
  child_.assign(nb, -1);
  sibling_.assign(nb, -1);
  for (int b = nb - 1; b >= 0; --b)
    if (const int a = chol.etree_parent(b); a >= 0) sibling_[b] = child_[a], child_[a] = b;
  int next = 0;
  for (int root = 0; root < nb; ++root) {  // depth first; child_ becomes each block's cursor
    if (chol.etree_parent(root) >= 0) continue;
    stack_.assign(1, root);
    while (!stack_.empty()) {
      const int b = stack_.back();
      if (const int c = child_[b]; c >= 0) {
        child_[b] = sibling_[c];
        stack_.push_back(c);
      } else {
        stack_.pop_back();
        post_[b] = next++;
      }
    }
  }
  wkey_.assign(ncb, std::numeric_limits<int>::max());
  for (int i = 0; i < kj_; ++i)
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e)
      if (const int c = D.entry_col(e) - kj_; c >= 0)
        wkey_[c] = std::min(wkey_[c], post_[chol.position(i)]);
  worder_.resize(ncb);
  for (int c = 0; c < ncb; ++c) worder_[c] = c;
  std::sort(worder_.begin(), worder_.end(), [&](int x, int y) {  // no buffer: no allocation
    return wkey_[x] != wkey_[y] ? wkey_[x] < wkey_[y] : x < y;
  });
  woff_.resize(ncb);
  for (int k = 0, o = 0; k < ncb; ++k) woff_[worder_[k]] = o, o += csize_[worder_[k]];
  // Wt = W^T (nc x nj): each of W's rows contiguous for the solve's row operations.
  Wt_.resize(nc_, nj_);
  Wt_.setZero();
  wlo_.assign(kj_, 0);
  whi_.assign(kj_, 0);
  for (int i = 0; i < kj_; ++i) {
    const int a = chol.position(i), r0 = chol.permuted_offset(i);
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const int c = D.entry_col(e) - kj_;
      if (c < 0) continue;
      Wt_.block(woff_[c], r0, csize_[c], p.blocks[i].size) = D.entry(e).transpose();
      if (whi_[a] <= wlo_[a]) {
        wlo_[a] = woff_[c];
        whi_[a] = woff_[c] + csize_[c];
      } else {
        wlo_[a] = std::min(wlo_[a], woff_[c]);
        whi_[a] = std::max(whi_[a], woff_[c] + csize_[c]);
      }
    }
  }
  chol.forward_transposed(Wt_.data(), nc_, wlo_, whi_);
  S_.resize(nc_, nc_);
  S_.setZero();  // blocks that share no body stay zero
  for (int i = kj_; i < p.num_blocks(); ++i)
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e) {
      const int j = D.entry_col(e);
      if (j < kj_) continue;
      const int ci = i - kj_, cj = j - kj_;
      if (woff_[cj] > woff_[ci]) continue;  // the lower triangle in W's order
      S_.block(woff_[ci], woff_[cj], csize_[ci], csize_[cj]) = D.entry(e);
    }
  // D_S = D_cc - W^T W = D_cc - sum over joint blocks of W_a^T W_a, W_a (W's rows of the joint
  // at position a) nonzero on the columns [wlo_, whi_) only.
  for (int i = 0; i < kj_ && nc_ > 0; ++i) {
    const int a = chol.position(i), l = wlo_[a], h = whi_[a];
    if (l >= h) continue;
    S_.block(l, l, h - l, h - l)
        .selfadjointView<Eigen::Lower>()
        .rankUpdate(Wt_.block(l, chol.permuted_offset(i), h - l, p.blocks[i].size), -1.0);
  }
  xj_.resize(nj_);
  for (int i = 0; i < kj_; ++i)
    xj_.segment(chol.permuted_offset(i), p.blocks[i].size) =
        p.v_f.segment(p.blocks[i].offset, p.blocks[i].size);
  chol.forward(xj_.data());

  // With joint rows only (nc_ = 0) everything below is empty: expand() alone solves the step,
  // lambda_j = -D_jj^-1 v_j.
  red_.dt = p.dt;
  red_.num_bodies = p.num_bodies;
  red_.nl = nc_;
  red_.blocks.assign(p.blocks.begin() + kj_, p.blocks.end());
  bool same_sizes = static_cast<int>(sizes_.size()) == static_cast<int>(red_.blocks.size());
  sizes_.resize(red_.blocks.size());
  for (size_t k = 0; k < red_.blocks.size(); ++k) {
    ConstraintBlock& b = red_.blocks[k];
    b.offset -= nj_;
    same_sizes = same_sizes && sizes_[k] == b.size;
    sizes_[k] = b.size;
  }
  red_.v_f.resize(nc_);
  red_.v_f.noalias() = p.v_f.tail(nc_);
  vs_.resize(nc_);
  vs_.noalias() = Wt_ * xj_;
  for (int c = 0; c < ncb; ++c)
    red_.v_f.segment(coff_[c], csize_[c]) -= vs_.segment(woff_[c], csize_[c]);
  // D_S in the blocks' order from its lower triangle in W's, dense and block-sparse.
  red_.D_dense.resize(nc_, nc_);
  for (int cj = 0; cj < ncb; ++cj)
    for (int ci = 0; ci < ncb; ++ci) {
      const int wi = woff_[ci], wj = woff_[cj];
      for (int c = 0; c < csize_[cj]; ++c)
        for (int r = 0; r < csize_[ci]; ++r)
          red_.D_dense(coff_[ci] + r, coff_[cj] + c) =
              wi + r >= wj + c ? S_(wi + r, wj + c) : S_(wj + c, wi + r);
    }
  red_.has_dense = true;
  const int nbk = static_cast<int>(sizes_.size());
  if (!same_sizes || red_.D.num_blocks() != nbk) {  // all pairs coupled: the structure of sizes
    red_.D.begin(sizes_.data(), nbk);
    for (int i = 0; i < nbk; ++i)
      for (int j = 0; j < nbk; ++j) red_.D.push_entry(i, j);
    red_.D.finalize();
  }
  // Entry by entry, row-major blocks from the column-major D_S (a raw loop: most blocks are 3x3
  // and 1x3, where a block expression's set-up costs more than the copy).
  const double* dense = red_.D_dense.data();
  for (int i = 0; i < nbk; ++i) {
    const int oi = red_.D.block_offset(i), si = red_.D.block_size(i);
    for (int e = red_.D.row_start(i); e < red_.D.row_start(i + 1); ++e) {
      const int j = red_.D.entry_col(e), oj = red_.D.block_offset(j), sj = red_.D.block_size(j);
      double* v = red_.D.entry(e).data();
      for (int r = 0; r < si; ++r)
        for (int c = 0; c < sj; ++c) v[r * sj + c] = dense[(oj + c) * nc_ + oi + r];
    }
  }
  red_.R.resize(0);
  red_.v_r.resize(0);
}

void JointSchur::expand(const Problem& p, const VecCRef& lambda_c, GrowVec& lambda) {
  assert(factored_);
  lambda.resize(p.nl);
  lambda.head(nj_).setZero();
  lambda.tail(nc_) = lambda_c;
  rj_.resize(nj_);
  yj_.resize(nj_);
  const BlockCholesky& chol = jd_->chol();
  // lambda_j = -D_jj^-1 (v_j + D_jc lambda_c), then one step of iterative refinement against the
  // residual r = D_jj lambda_j + D_jc lambda_c + v_j (both from D's joint rows: lambda_j = 0 in
  // the first, which reads D_jc only).
  for (int pass = 0; pass < 2; ++pass) {
    yj_ = p.v_f.head(nj_);
    for (int i = 0; i < kj_; ++i)
      p.D.multiply_row_add(i, lambda.data(), yj_.data() + p.blocks[i].offset, pass == 0 ? kj_ : 0);
    chol.solve(yj_.data(), rj_.data());
    lambda.head(nj_) -= yj_;
  }
}

int JointSchur::unwedge(Problem& p) {
  int wedged = 0;
  for (int c = 0; c < static_cast<int>(red_.blocks.size()); ++c) {
    const ConstraintBlock& b = red_.blocks[c];
    if (b.cone != ConeKind::Coulomb || !(b.mu > 0.0)) continue;
    const Mat3 S = red_.D_dense.block<3, 3>(coff_[c], coff_[c]);
    const double floor = kWedgeEigen * p.D.diagonal(kj_ + c).trace();
    // The screen: S is positive semidefinite, so its smallest eigenvalue is at least
    // det S / (tr S / 2)^2; above floor by that bound the block is regular (most are).
    const double half_trace = 0.5 * S.trace();
    if (S.determinant() > floor * half_trace * half_trace) continue;
    Eigen::SelfAdjointEigenSolver<Mat3> eig;
    eig.computeDirect(S, Eigen::EigenvaluesOnly);
    if (!(eig.eigenvalues()(0) <= floor)) continue;
    eig.compute(S);  // the singular directions to working precision
    const Vec3 lam = eig.eigenvalues();
    const Mat3& V = eig.eigenvectors();  // columns, eigenvalues ascending; rows [t, o, n]
    const int k = (lam(0) <= floor) + (lam(1) <= floor) + (lam(2) <= floor);
    const Vec3 v = red_.v_f.segment<3>(coff_[c]);
    Vec3 shift = Vec3::Zero();
    if (k == 1) {
      // z (oriented z_n > 0) inside K_mu: |z_t| < mu z_n. v's component along z must not be
      // negative (z . v_hat > 0 for every nonzero v_hat in K*).
      const Vec3 z = V(2, 0) < 0.0 ? Vec3(-V.col(0)) : Vec3(V.col(0));
      if (!(std::hypot(z(0), z(1)) < b.mu * z(2))) continue;
      shift = -std::min(0.0, z.dot(v)) * z;
    } else if (k == 2) {
      // The null plane N (normal m) meets int K_mu unless m or -m lies in K*_mu.
      const Vec3 m = V.col(2);
      if (!(b.mu * std::hypot(m(0), m(1)) > std::abs(m(2)))) continue;
      shift = dual_shift(V.col(0), V.col(1), v - m * m.dot(v), b.mu);
    } else if (k == 3) {  // no motion at all: v itself must lie in K*_mu
      if (v(2) >= b.mu * std::hypot(v(0), v(1))) continue;
      shift = -v;
    } else {
      continue;
    }
    if (shift.isZero(0.0)) continue;  // v_S already admitted
    red_.v_f.segment<3>(coff_[c]) += shift;
    p.v_f.segment<3>(p.blocks[kj_ + c].offset) += shift;
    ++wedged;
  }
  return wedged;
}

namespace {
// Dykstra's projections for unwedge_together: at most this many rounds, each two projections of at
// most 3 kWedgeTogetherMax entries (about 1 ms on the G1 29's 23 contacts; docs/performance.md).
constexpr int kDykstraIters = 2000;
}  // namespace

int JointSchur::unwedge_together(Problem& p) {
  contacts_.clear();
  for (int c = 0; c < static_cast<int>(red_.blocks.size()); ++c) {
    const ConstraintBlock& b = red_.blocks[c];
    if (b.cone == ConeKind::Coulomb && b.mu > 0.0) contacts_.push_back(c);
  }
  const int k = static_cast<int>(contacts_.size());
  const int m = 3 * k;
  if (k < 2 || k > kWedgeTogetherMax) return 0;
  const int* cs = contacts_.data();
  auto off = [&](int i) { return coff_[cs[i]]; };
  // D_S on the contact rows (a principal block: positive semidefinite, so a null direction of it is
  // one of D_S: impulses that change no velocity on any row), v_S there, and the largest trace of
  // the contacts' blocks of D.
  MatX S(m, m);
  VecX v(m);
  double trace = 0.0;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j)
      S.block<3, 3>(3 * i, 3 * j) = red_.D_dense.block<3, 3>(off(i), off(j));
    v.segment<3>(3 * i) = red_.v_f.segment<3>(off(i));
    trace = std::max(trace, p.D.diagonal(kj_ + cs[i]).trace());
  }
  const Eigen::SelfAdjointEigenSolver<MatX> eig(S);
  int d = 0;
  while (d < m && eig.eigenvalues()(d) <= kWedgeEigen * trace) ++d;
  if (d == 0) return 0;
  const auto N = eig.eigenvectors().leftCols(d);
  // x -> P_C(-y), y = P_N v, C = N n K: Dykstra's projections alternating between K (each
  // contact's cone) and N, from -y (Boyle and Dykstra 1986).
  VecX x = -(N * (N.transpose() * v)), xn(m), a(m), y(m);
  VecX pk = VecX::Zero(m), pn = VecX::Zero(m);
  const double scale = std::max(1.0, v.lpNorm<Eigen::Infinity>());
  for (int it = 0; it < kDykstraIters; ++it) {
    a = x + pk;
    for (int i = 0; i < k; ++i)
      y.segment<3>(3 * i) = project_coulomb(a.segment<3>(3 * i), red_.blocks[cs[i]].mu);
    pk = a - y;
    a = y + pn;
    xn.noalias() = N * (N.transpose() * a);
    pn = a - xn;
    const double step = (xn - x).lpNorm<Eigen::Infinity>();
    x.swap(xn);
    if (step <= 1e-15 * scale) break;
  }
  int shifted = 0;
  for (int i = 0; i < k; ++i) {
    const Vec3 shift = x.segment<3>(3 * i);
    if (!(shift.lpNorm<Eigen::Infinity>() > 1e-12 * scale)) continue;  // admitted as it is
    red_.v_f.segment<3>(off(i)) += shift;
    p.v_f.segment<3>(p.blocks[kj_ + cs[i]].offset) += shift;
    ++shifted;
  }
  return shifted;
}

// K_mu meets the plane spanned by e1, e2 (orthonormal) in a sector between two rays a1, a2 (x^T Q x
// = 0, Q = diag(-1, -1, mu^2), x_n > 0). w (in the plane) must lie in the sector's dual within the
// plane, {y : y . a1 >= 0, y . a2 >= 0}; the shift moves it to its nearest point there.
Vec3 JointSchur::dual_shift(const Vec3& e1, const Vec3& e2, const Vec3& w, double mu) {
  auto q = [mu](const Vec3& x, const Vec3& y) {
    return mu * mu * x(2) * y(2) - x(0) * y(0) - x(1) * y(1);
  };
  const double g11 = q(e1, e1), g12 = q(e1, e2), g22 = q(e2, e2);
  const double disc = std::sqrt(std::max(0.0, g12 * g12 - g11 * g22));
  Vec3 a[2];
  if (std::max(std::abs(g11), std::abs(g22)) <= 1e-12 * std::abs(g12)) {  // e1, e2 are the rays
    a[0] = e1, a[1] = e2;
  } else if (std::abs(g22) >= std::abs(g11)) {  // x = e1 + t e2, g22 t^2 + 2 g12 t + g11 = 0
    for (int i = 0; i < 2; ++i) a[i] = e1 + ((-g12 + (i ? disc : -disc)) / g22) * e2;
  } else {  // x = t e1 + e2, g11 t^2 + 2 g12 t + g22 = 0
    for (int i = 0; i < 2; ++i) a[i] = ((-g12 + (i ? disc : -disc)) / g11) * e1 + e2;
  }
  for (Vec3& x : a) x = (x(2) < 0.0 ? -x : x).normalized();
  if (w.dot(a[0]) >= 0.0 && w.dot(a[1]) >= 0.0) return Vec3::Zero();
  // The dual sector's edges: d_i in the plane, normal to a_i, on the side of the other ray.
  Vec3 best = -w;  // the projection onto the apex
  double best_norm = w.squaredNorm();
  const Vec3 n = e1.cross(e2);
  for (int i = 0; i < 2; ++i) {
    Vec3 d = n.cross(a[i]).normalized();
    if (d.dot(a[1 - i]) < 0.0) d = -d;
    const double t = w.dot(d);
    if (t <= 0.0) continue;
    const Vec3 shift = t * d - w;
    if (shift.squaredNorm() < best_norm) best = shift, best_norm = shift.squaredNorm();
  }
  return best;
}

}  // namespace moreau
