// "nsn": semismooth Newton on the natural map (eq. 163); see nsn.hpp.
#include "moreau/solvers/nsn.hpp"
#include "moreau/solvers/stop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <Eigen/Cholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#ifdef MOREAU_HAVE_KLU
#include <Eigen/KLUSupport>
#endif

#include "moreau/ncp/cones.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/prox_fp.hpp"

namespace moreau {

Mat3 nsn::coulomb_projection_jacobian(const Vec3& y, double mu) {
  const double r = norm2(y[0], y[1]);
  if (r <= mu * y[2]) return Mat3::Identity();  // inside K_mu
  if (mu * r <= -y[2]) return Mat3::Zero();     // inside the polar cone -K*_mu
  // P(y) = s (mu e, 1), s = (y_n + mu r) / (1 + mu^2), e = y_T / r (r > 0 here).
  const double c = 1.0 / (1.0 + mu * mu), s = (y[2] + mu * r) * c;
  const Eigen::Vector2d e(y[0] / r, y[1] / r);
  Mat3 J;
  J.topLeftCorner<2, 2>() = mu * mu * c * e * e.transpose() +
                            (mu * s / r) * (Eigen::Matrix2d::Identity() - e * e.transpose());
  J.topRightCorner<2, 1>() = mu * c * e;
  J.bottomLeftCorner<1, 2>() = mu * c * e.transpose();
  J(2, 2) = c;
  return J;
}

bool nsn::sparse_delassus(const Problem& p) {
  const int n = p.nl;
  return p.D.rows() == n && p.D.num_blocks() == static_cast<int>(p.blocks.size()) &&
         4.0 * p.D.nnz() < static_cast<double>(n) * n;
}

namespace {

using RowMatX = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct NsnWorkspace {
  static constexpr WorkspaceSlot slot = WorkspaceSlot::Nsn;
  GrowMat A;  // D + R, dense, where the Problem's D_dense cannot serve as it is
  GrowMat H;  // element of the generalized Jacobian of F (A + eps I), Gauss-Newton fallback only
  GrowMat N;  // H^T H + m I (Gauss-Newton steps), factored in place
  std::optional<Eigen::LLT<Eigen::Ref<MatX>>> llt;
  std::vector<int> piv;  // the LU's row interchanges
  GrowVec lam, v, F, rho, g, d, Ad, trial, v_eps, F_trial, best, scratch, z;
  std::vector<double> merits;  // the last ls_memory merits, a ring
  std::vector<Mat3> dP;        // per block: the projection's Jacobian (limits: entry (0, 0))
  std::vector<char> unit;      // per row: H's row is e_i^T (separating contact, inactive limit)
  std::vector<int> act, ones;  // the other rows, the unit rows
  Growable<RowMatX> Hr;        // H on the other rows and columns (the LU's matrix), row-major
  GrowVec dr, gcol;            // its right-hand side; a gathered column of A
  // The sparse Newton system (above dense_rows): H_aa in compressed columns, built from triplets,
  // factored by a sparse LU (below), re-analysed where the active rows change.
  std::vector<Eigen::Triplet<double>> trip;
  Eigen::SparseMatrix<double> Hs;
  // KLU where the build has it (cmake/optional_deps.cmake): 1.2x to 7x faster on FCLib's piles
  // (docs/solvers.md, "nsn").
#ifdef MOREAU_HAVE_KLU
  Eigen::KLU<Eigen::SparseMatrix<double>> slu;
#else
  Eigen::SparseLU<Eigen::SparseMatrix<double>> slu;
#endif
  std::vector<int> pos, analysed;  // per row: its place among w.act (-1: unit row); last pattern
  Eigen::Index analysed_nonzeros = -1;  // H_aa's stored entries when it was analysed
  GrowVec diag, du;                     // A's diagonal; d on the unit rows (0 elsewhere)
};

// A = D + R as the solver reads it: the dense matrix (at most dense_rows rows) or the Problem's
// block-sparse D with R's diagonal beside it.
struct Delassus {
  const double* dense = nullptr;  // n x n column-major, or null: sparse
  const BlockSparse* D = nullptr;
  const GrowVec* R = nullptr;  // empty: none
  int n = 0;
  Eigen::Map<const MatX> mat() const { return {dense, n, n}; }
  // y = A x.
  void multiply(const VecCRef& x, GrowVec& y) const {
    y.resize(n);
    if (dense) {
      y.noalias() = mat() * x;
      return;
    }
    D->multiply(x.data(), y.data());
    if (R->size() == n) y += R->cwiseProduct(x);
  }
};

// F(lambda) = lambda - P_K(lambda - rho (v + Gamma(v))) into F; returns 1/2 |F|^2. With dP set,
// also the projection's generalized Jacobian per block.
double natural_map(const Problem& p, const VecCRef& lam, const VecCRef& v, const VecCRef& rho,
                   VecRef F, std::vector<Mat3>* dP) {
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const int o = b.offset;
    const double r = rho[o];
    switch (b.cone) {
      case ConeKind::Free:  // P = identity: F = rho v
        F.segment(o, b.size) = r * v.segment(o, b.size);
        break;
      case ConeKind::Orthant: {
        const double y = lam[o] - r * v[o];
        F[o] = lam[o] - project_orthant(y);
        if (dP) (*dP)[k](0, 0) = y > 0.0 ? 1.0 : 0.0;
        break;
      }
      case ConeKind::Box: {  // joint dry friction: the orthant's, with two bounds
        const double y = lam[o] - r * v[o];
        F[o] = lam[o] - project_box(y, b.bound);
        if (dP) (*dP)[k](0, 0) = std::abs(y) < b.bound ? 1.0 : 0.0;
        break;
      }
      case ConeKind::Coulomb: {
        const Vec3 w = v.segment<3>(o) + de_saxce(v.segment<3>(o), b.mu);
        const Vec3 y = lam.segment<3>(o) - r * w;
        F.segment<3>(o) = lam.segment<3>(o) - project_coulomb(y, b.mu);
        if (dP) (*dP)[k] = nsn::coulomb_projection_jacobian(y, b.mu);
        break;
      }
    }
  }
  return 0.5 * F.squaredNorm();
}

// t_j = (((t_j - l_0 u_0j) - l_1 u_1j) - ...) - l_(b-1) u_(b-1)j for j < m, b <= 4: the elementwise
// operations of b rank-1 updates in one sweep (SSE2, x86-64's baseline, two lanes at a time; each
// lane does the scalar loop's operations in its order).
inline void panel_update(double* t, const double* const* u, const double* l, int b, int m) {
  int j = 0;
#if defined(__SSE2__)
  if (b == 4) {
    const __m128d a0 = _mm_set1_pd(l[0]), a1 = _mm_set1_pd(l[1]), a2 = _mm_set1_pd(l[2]),
                  a3 = _mm_set1_pd(l[3]);
    for (; j + 2 <= m; j += 2) {
      __m128d x = _mm_loadu_pd(t + j);
      x = _mm_sub_pd(x, _mm_mul_pd(a0, _mm_loadu_pd(u[0] + j)));
      x = _mm_sub_pd(x, _mm_mul_pd(a1, _mm_loadu_pd(u[1] + j)));
      x = _mm_sub_pd(x, _mm_mul_pd(a2, _mm_loadu_pd(u[2] + j)));
      x = _mm_sub_pd(x, _mm_mul_pd(a3, _mm_loadu_pd(u[3] + j)));
      _mm_storeu_pd(t + j, x);
    }
  }
  if (b == 2) {
    const __m128d a0 = _mm_set1_pd(l[0]), a1 = _mm_set1_pd(l[1]);
    for (; j + 2 <= m; j += 2) {
      __m128d x = _mm_loadu_pd(t + j);
      x = _mm_sub_pd(x, _mm_mul_pd(a0, _mm_loadu_pd(u[0] + j)));
      x = _mm_sub_pd(x, _mm_mul_pd(a1, _mm_loadu_pd(u[1] + j)));
      _mm_storeu_pd(t + j, x);
    }
  }
#endif
  for (; j < m; ++j) {
    double x = t[j];
    for (int q = 0; q < b; ++q) x -= l[q] * u[q][j];
    t[j] = x;
  }
}

// In place LU with partial pivoting of a row-major matrix: LAPACK getrf's unblocked loop, with the
// trailing rows' rank-1 updates applied four pivots at a time (a panel of 4 columns factored
// first, then each trailing row swept once for the 4 updates, (((a - l0 u0) - l1 u1) - ...), the
// operations of the unblocked loop in its order, bit for bit, with a quarter of its loads and
// stores). Eigen's PartialPivLU allocates its permutation on every factorization and was slower
// at these sizes. False at an exactly zero pivot.
bool lu_factor(Growable<RowMatX>& A, std::vector<int>& piv) {
  constexpr int kPanel = 4;
  const int n = static_cast<int>(A.rows());
  piv.resize(n);
  double* a = A.data();
  const auto row = [&](int i) { return a + static_cast<Eigen::Index>(i) * n; };
  for (int k0 = 0; k0 < n; k0 += kPanel) {
    const int b = std::min(kPanel, n - k0), k1 = k0 + b;  // the panel's columns [k0, k1)
    for (int k = k0; k < k1; ++k) {
      // Column k's pivot: the row of the largest |entry| (the first among equals) swapped to k
      // (whole rows: the trailing updates still owed travel with their multipliers).
      int p = k;
      double big = std::abs(row(k)[k]);
      for (int i = k + 1; i < n; ++i)
        if (std::abs(row(i)[k]) > big) big = std::abs(row(p = i)[k]);
      if (big == 0.0) return false;
      piv[k] = p;
      if (p != k) std::swap_ranges(row(k), row(k) + n, row(p));
      const double inv = 1.0 / row(k)[k];
      const double* uk = row(k);
      for (int i = k + 1; i < n; ++i) {  // L's column, and the panel's columns right of k
        double* r = row(i);
        r[k] *= inv;
        for (int c = k + 1; c < k1; ++c) r[c] -= r[k] * uk[c];
      }
    }
    const int m = n - k1;
    if (m == 0) break;
    const double* u[kPanel];
    double l[kPanel];
    for (int q = 0; q < b; ++q) u[q] = row(k0 + q) + k1;
    for (int q = 1; q < b; ++q) {  // the panel's rows right of it: the pivots above them
      const double* r = row(k0 + q);
      panel_update(row(k0 + q) + k1, u, r + k0, q, m);
    }
    for (int i = k1; i < n; ++i) {
      double* r = row(i);
      for (int q = 0; q < b; ++q) l[q] = r[k0 + q];
      panel_update(r + k1, u, l, b, m);
    }
  }
  return true;
}

// x <- A^-1 x with A's factors from lu_factor.
template <class Matrix>
void lu_solve(const Matrix& LU, const std::vector<int>& piv, VecRef x) {
  for (size_t k = 0; k < piv.size(); ++k) std::swap(x[k], x[piv[k]]);
  LU.template triangularView<Eigen::UnitLower>().solveInPlace(x);
  LU.template triangularView<Eigen::Upper>().solveInPlace(x);
}

using MatCMap = Eigen::Map<const MatX>;

// F's generalized Jacobian H with A + eps I in place of A (the proximal term), block by block:
// unit rows e_i^T where P'_b = 0 (a separating contact, an inactive limit: F_b = lambda_b), else
//   H_b = K_b (A + eps I)_b + (I - P'_b) E_b,  K_b = rho_b P'_b (I + Gamma'_b),
// Gamma' the De Saxce term's derivative (mu v_T^T / |v_T| on the normal row; 0 at v_T = 0). The
// rows are A's (A need not be symmetric: FCLib's W and user problems are taken as given).
// unit_rows() marks the unit rows in w.unit, w.ones and the others in w.act; for_each_piece()
// calls f(k, o, sb, K, IP) for the other blocks (k the block), Free blocks row by row (P' = I, K =
// rho_b), with K and IP = I - P'_b in their top-left sb x sb.
void unit_rows(const Problem& p, NsnWorkspace& w) {
  const int n = p.nl;
  w.unit.assign(n, 0);
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const bool unit =
        ((b.cone == ConeKind::Orthant || b.cone == ConeKind::Box) && w.dP[k](0, 0) == 0.0) ||
        (b.cone == ConeKind::Coulomb && w.dP[k].isZero(0.0));
    if (unit) std::fill_n(w.unit.begin() + b.offset, b.size, 1);
  }
  w.act.clear();
  w.ones.clear();
  for (int i = 0; i < n; ++i) (w.unit[i] ? w.ones : w.act).push_back(i);
}

template <class Piece>
void for_each_piece(const Problem& p, const NsnWorkspace& w, Piece&& f) {
  for (size_t k = 0; k < p.blocks.size(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const int o = b.offset;
    if (b.size == 0 || w.unit[o]) continue;
    const double r = w.rho[o];
    Mat3 K = Mat3::Zero(), IP = Mat3::Zero();
    switch (b.cone) {
      case ConeKind::Free:
        K(0, 0) = r;
        for (int i = 0; i < b.size; ++i) f(static_cast<int>(k), o + i, 1, K, IP);
        break;
      case ConeKind::Orthant:
      case ConeKind::Box:
        K(0, 0) = r * w.dP[k](0, 0);
        IP(0, 0) = 1.0 - w.dP[k](0, 0);
        f(static_cast<int>(k), o, 1, K, IP);
        break;
      case ConeKind::Coulomb: {
        Mat3 T = Mat3::Identity();  // I + Gamma'
        const double vt = norm2(w.v[o], w.v[o + 1]);
        if (vt > 0.0) {
          T(2, 0) = b.mu * w.v[o] / vt;
          T(2, 1) = b.mu * w.v[o + 1] / vt;
        }
        K = r * (w.dP[k] * T);
        IP = Mat3::Identity() - w.dP[k];
        f(static_cast<int>(k), o, 3, K, IP);
        break;
      }
    }
  }
}

// The Newton system on the rows that are not unit rows (d_i = -F_i outright on those): H_aa d_a =
// -F_a - H_au d_u, into w.Hr (row-major) and w.dr, the rows and columns w.act; a piece's rows of A
// gathered at the columns w.act, and H_au d_u = K_b (A d_u)_b.
void newton_system(const Problem& p, const MatCMap& A, double eps, NsnWorkspace& w) {
  const int n = p.nl;
  unit_rows(p, w);
  const int m = static_cast<int>(w.act.size());
  w.z.setZero(n);  // A d_u, d_u = -F_u
  for (int i : w.ones) w.z.noalias() -= w.F[i] * A.col(i);
  w.Hr.resize(m, m);
  w.dr.resize(m);
  w.gcol.resize(m);
  int k0 = 0;  // the piece's first row among the active ones (blocks are all unit or none)
  for_each_piece(p, w, [&](int, int o, int sb, const Mat3& K, const Mat3& IP) {
    for (int j = 0; j < sb; ++j) {
      for (int c = 0; c < m; ++c) w.gcol[c] = A(o + j, w.act[c]);
      for (int i = 0; i < sb; ++i) {
        if (j == 0)
          w.Hr.row(k0 + i).noalias() = K(i, j) * w.gcol.transpose();
        else if (K(i, j) != 0.0)
          w.Hr.row(k0 + i).noalias() += K(i, j) * w.gcol.transpose();
      }
    }
    for (int i = 0; i < sb; ++i) {
      double x = -w.F[o + i];
      for (int j = 0; j < sb; ++j) {
        w.Hr(k0 + i, k0 + j) += eps * K(i, j) + IP(i, j);
        x -= K(i, j) * w.z[o + j];
      }
      w.dr[k0 + i] = x;
    }
    k0 += sb;
  });
}

// The same system from the block-sparse D (above dense_rows): H_aa's entries K_b (A + eps I)_{b,c}
// + (I - P'_b) over the stored blocks (b, c) of D, both active, into w.Hs (zeros included: the
// pattern is a function of the active rows alone, and the LU's analysis is kept while they
// stay); A d_u from one product. Factored by KLU or SparseLU; false where it fails (a singular
// H_aa), and the step is retried with a larger proximal term. Its answer d_a into w.dr.
bool sparse_newton_step(const Problem& p, const Delassus& A, double eps, NsnWorkspace& w) {
  const int n = p.nl;
  unit_rows(p, w);
  const int m = static_cast<int>(w.act.size());
  w.dr.resize(m);
  if (m == 0) return true;  // every row a unit row: d = -F (a sparse LU cannot factor 0 x 0)
  w.pos.assign(n, -1);
  for (int r = 0; r < m; ++r) w.pos[w.act[r]] = r;
  w.du.setZero(n);
  for (int i : w.ones) w.du[i] = -w.F[i];
  A.multiply(w.du, w.z);  // A d_u
  const BlockSparse& D = *A.D;
  const bool has_R = A.R->size() == n;
  w.trip.clear();
  for_each_piece(p, w, [&](int k, int o, int sb, const Mat3& K, const Mat3& IP) {
    const int bo = D.block_offset(k);  // the piece's rows are rows o - bo .. of block row k
    for (int e = D.row_start(k); e < D.row_start(k + 1); ++e) {
      const int c = D.entry_col(e), co = D.block_offset(c);
      if (D.block_size(c) == 0 || w.pos[co] < 0) continue;  // a unit block's columns: in A d_u
      const auto B = D.entry(e);
      for (int i = 0; i < sb; ++i)
        for (int col = 0; col < B.cols(); ++col) {
          double h = 0.0;
          for (int j = 0; j < sb; ++j) h += K(i, j) * B(o - bo + j, col);
          w.trip.emplace_back(w.pos[o + i], w.pos[co + col], h);
        }
    }
    for (int i = 0; i < sb; ++i) {
      double x = -w.F[o + i];
      for (int j = 0; j < sb; ++j) {
        const double r = has_R ? (*A.R)[o + j] : 0.0;
        const double h = (eps + r) * K(i, j) + IP(i, j);
        w.trip.emplace_back(w.pos[o + i], w.pos[o + j], h);
        x -= K(i, j) * w.z[o + j];
      }
      w.dr[w.pos[o + i]] = x;
    }
  });
  w.Hs.resize(m, m);
  w.Hs.setFromTriplets(w.trip.begin(), w.trip.end());  // duplicates (the diagonal) are summed
  w.Hs.makeCompressed();
  // The pattern is a function of the active rows (zeros stored); its size is checked as well, as
  // KLU's numeric factorization writes into arrays sized by the analysis.
  if (w.analysed != w.act || w.analysed_nonzeros != w.Hs.nonZeros()) {
    w.slu.analyzePattern(w.Hs);
    w.analysed = w.act;
    w.analysed_nonzeros = w.Hs.nonZeros();
  }
  w.slu.factorize(w.Hs);
  if (w.slu.info() != Eigen::Success) {
    w.analysed.clear();  // a failed factorization leaves no usable analysis behind
    return false;
  }
  w.gcol = w.slu.solve(w.dr);
  w.dr = w.gcol;
  return w.dr.allFinite();
}

// H whole (n x n), for the Gauss-Newton step.
void jacobian(const Problem& p, const MatCMap& A, double eps, NsnWorkspace& w) {
  const int n = p.nl;
  unit_rows(p, w);
  w.H.resize(n, n);
  for (int i : w.ones) {
    w.H.row(i).setZero();
    w.H(i, i) = 1.0;
  }
  for_each_piece(p, w, [&](int, int o, int sb, const Mat3& K, const Mat3& IP) {
    w.H.middleRows(o, sb).noalias() = K.topLeftCorner(sb, sb) * A.middleRows(o, sb);
    w.H.block(o, o, sb, sb) += eps * K.topLeftCorner(sb, sb) + IP.topLeftCorner(sb, sb);
  });
}

// One damped step from w.lam: Newton H d = -F (LU), or Gauss-Newton (H^T H + m I) d = -H^T F when
// eps = 0 or the LU step is not finite, then Armijo backtracking on 1/2 |F_eps|^2, the merit of the
// proximal problem centred at lambda (v_eps = v + eps (lambda' - lambda)); its slope along d is
// -|F|^2 for the Newton step. The sufficient decrease is measured from theta_ref >= theta, the
// largest merit of the last iterates (nonmonotone). The accepted iterate is in w.trial, its step
// length in alpha.
enum class Step { Accepted, NoDecrease, NotPositiveDefinite };
Step damped_step(const Problem& p, const Delassus& Ad, const NsnSettings& S, double eps,
                 double theta, double theta_ref, NsnWorkspace& w, double& alpha) {
  const int n = p.nl;
  w.d.resize(n);
  w.g.resize(n);
  bool newton = false;
  if (!Ad.dense) {  // sparse: Newton steps only, a failed factorization retried with a larger eps
    if (!sparse_newton_step(p, Ad, eps, w)) return Step::NoDecrease;
    w.d = -w.F;
    for (int r = 0; r < static_cast<int>(w.act.size()); ++r) w.d[w.act[r]] = w.dr[r];
    newton = true;
  } else if (eps > 0.0) {
    const MatCMap A = Ad.mat();
    newton_system(p, A, eps, w);
    newton = lu_factor(w.Hr, w.piv);
    if (newton) {
      lu_solve(w.Hr, w.piv, w.dr);
      w.d = -w.F;
      for (int r = 0; r < static_cast<int>(w.act.size()); ++r) w.d[w.act[r]] = w.dr[r];
      newton = w.d.allFinite();
    }
  }
  if (!newton) {
    const MatCMap A = Ad.mat();
    jacobian(p, A, eps, w);
    w.N.resize(n, n);
    w.N.noalias() = w.H.transpose() * w.H;
    // A ridge of 1e-12 of the largest diagonal entry keeps the factorization defined where
    // redundant contacts make H singular; the step is then H's least-squares Newton step.
    w.N.diagonal().array() += 1e-12 * w.N.diagonal().maxCoeff() + 1e-300;
    w.g.noalias() = w.H.transpose() * w.F;
    w.llt.emplace(w.N);
    if (w.llt->info() != Eigen::Success) return Step::NotPositiveDefinite;
    w.d = -w.g;
    w.llt->solveInPlace(w.d);
  }
  const double slope = newton ? -2.0 * theta : w.g.dot(w.d);
  w.trial.resize(n);
  w.v_eps.resize(n);
  w.F_trial.resize(n);
  // v is affine in lambda: one product A d per step, O(n) per trial.
  Ad.multiply(w.d, w.Ad);
  alpha = 1.0;
  for (int k = 0; k <= S.ls_steps; ++k, alpha *= 0.5) {
    w.trial = w.lam + alpha * w.d;
    w.v_eps = w.v + alpha * w.Ad + (eps * alpha) * w.d;
    const double th = natural_map(p, w.trial, w.v_eps, w.rho, w.F_trial, nullptr);
    if (th <= theta_ref + 1e-4 * alpha * slope) return Step::Accepted;
  }
  return Step::NoDecrease;
}

}  // namespace

void solve_nsn(const Problem& p, const SolverSettings& s, const WarmStart& ws_in,
               SolverWorkspace& wsp, Solution& sol) {
  if (reject_invalid_problem("nsn", p, sol)) return;
  const NsnSettings& S = s.nsn;
  const int n = p.nl;
  sol.iterations = 0;
  sol.residual = 0.0;
  const auto t0 = std::chrono::steady_clock::now();
  auto& w = wsp.get<NsnWorkspace>();
  // Set-up: A = D + R, dense at most dense_rows rows (the Problem's own dense D where there is no
  // R: no copy), else the block-sparse D as it is; A's diagonal, and the block scales.
  Delassus A;
  A.D = &p.D;
  A.R = &p.R;
  A.n = n;
  w.diag.resize(n);
  const bool sparse = n > S.dense_rows && nsn::sparse_delassus(p);
  if (!sparse) {
    if (p.has_dense && p.R.size() != n && p.D_dense.rows() == n && p.D_dense.cols() == n) {
      A.dense = p.D_dense.data();
    } else {
      if (p.has_dense)
        w.A = p.D_dense.topLeftCorner(n, n);
      else
        p.D.to_dense(w.A);
      if (p.R.size() == n) w.A.diagonal() += p.R;
      A.dense = w.A.data();
    }
    w.diag = A.mat().diagonal();
  } else {
    for (int k = 0; k < p.D.num_blocks(); ++k)
      w.diag.segment(p.D.block_offset(k), p.D.block_size(k)) = p.D.diagonal(k).diagonal();
    if (p.R.size() == n) w.diag += p.R;
  }
  w.analysed.clear();  // The sparse LU's analysis is of the last problem's pattern: not this one's
  w.rho.resize(n);
  w.dP.resize(p.blocks.size());
  for (const ConstraintBlock& b : p.blocks) {
    const double mean = w.diag.segment(b.offset, b.size).mean();
    w.rho.segment(b.offset, b.size).setConstant(mean > 0.0 ? S.rho_scale / mean : S.rho_scale);
  }
  const double max_diag = w.diag.cwiseAbs().maxCoeff();
  const double eps0 = S.prox * max_diag, eps_max = std::max(eps0, S.prox_max * max_diag);
  double eps = eps0;
  auto set_eps = [&](double e) { eps = e; };
  sol.setup_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  w.lam.resize(n);
  if (ws_in.empty())
    w.lam.setZero();
  else
    w.lam = ws_in.lambda;
  A.multiply(w.lam, w.v);
  w.v += p.v_f;
  w.F.resize(n);
  double theta = natural_map(p, w.lam, w.v, w.rho, w.F, &w.dP);
  double best = std::numeric_limits<double>::infinity();
  w.best.resize(n);
  sol.status = SolveStatus::MaxIterations;
  // The nonmonotone line search (Grippo, Lampariello and Lucidi 1986): where a kink of F along the
  // Newton direction caps the monotone search at the same short step iteration after iteration (the
  // humanoid's reduced problems: 28 iterations at alpha = 1/16, 5% less |F| each), the reference
  // max of the last ls_memory merits lets the full step through. docs/performance.md: 910 instead
  // of 749 of 958 settled, 15,201 instead of 27,540 Newton iterations.
  const int memory = std::max(1, S.ls_memory);
  w.merits.assign(memory, theta);
  double eps_floor = eps0, res0 = -1.0;  // eps's floor (prox_decay); the start's natural map
  double stall_best = std::numeric_limits<double>::infinity();  // stalls (below)
  int stall_it = 0;
  auto stall = [&](double res, int it) {  // eps grows stall_factor-fold; the window restarts
    set_eps(std::min(S.stall_factor * eps, eps_max));
    stall_best = res;
    stall_it = it;
  };
  for (int it = 0;; ++it) {
    const double res = ncp_residuals(p, w.lam, w.v, true, w.scratch).natmap;
    if (!std::isfinite(res)) {
      sol.status = SolveStatus::Diverged;
      sol.message = "nsn: non-finite iterate";
      break;
    }
    if (s.trace) sol.trace.push_back(res);
    // prox_decay: eps's floor falls with the natural map (Levenberg-Marquardt's term proportional
    // to a power of the residual, Fan and Yuan 2005): a fixed eps0 damps stick-slip cycles far
    // from the answer but, near it, slows the last digits to a crawl along D's small eigenvalues
    // (a settling sphere pile at tol 1e-8: 2e-8 for 300 iterations; docs/solvers.md, "nsn").
    if (res0 < 0.0) res0 = res;
    if (S.prox_decay > 0.0 && res0 > 0.0)
      eps_floor = eps0 * std::min(1.0, std::pow(res / res0, S.prox_decay));
    if (res < best) {
      best = res;
      w.best = w.lam;
    }
    sol.iterations = it;
    if (res <= s.tol) {
      sol.status = SolveStatus::Converged;
      break;
    }
    if (it >= s.max_iters || should_stop()) break;  // should_stop: solvers/stop.hpp
    // Stalled: stall_window iterations without a 10x lower natural map. On degenerate contacts (a
    // body sliding at 1e-6 m/s on 4 contacts at their cones' boundary, D singular) the Newton steps
    // cycle between stick and slip, the nonmonotone search accepting each (humanoid100: natural map
    // 2e-5 <-> 3e-4 for 60 iterations); a larger proximal term damps them (eps 1e-3 max A_ii: 4
    // iterations). With prox = 0 there is no term to grow. docs/solvers.md ("nsn") and
    // docs/performance.md ("Newton on the reduced problem").
    if (S.stall_window > 0) {
      if (res < 0.1 * stall_best) stall_best = res, stall_it = it;
      if (it - stall_it >= S.stall_window) stall(res, it);
    }
    // A step with eps, retried with 100x eps where the line search fails (see above).
    Step step = Step::NoDecrease;
    double alpha = 1.0;
    for (;;) {
      const double theta_ref = *std::max_element(w.merits.begin(), w.merits.end());
      step = damped_step(p, A, S, eps, theta, theta_ref, w, alpha);
      if (step != Step::NoDecrease || !(eps > 0.0) || eps >= eps_max) break;
      set_eps(std::min(100.0 * eps, eps_max));
    }
    if (step == Step::NotPositiveDefinite) {
      sol.status = SolveStatus::Failed;
      sol.message = "nsn: the Newton system is not positive definite";
      break;
    }
    if (step == Step::NoDecrease) {
      sol.message = "nsn: the line search found no decrease of |F| (stalled)";
      break;
    }
    if (alpha == 1.0 && eps > eps_floor) set_eps(std::max(eps_floor, 0.1 * eps));
    // The short-step test, off by default (stall_step 0): a step the line search cut below
    // stall_step barely moves the iterate, and eps grows now instead of after the window above
    // (a G1 29 fall's step: four steps at alpha 1e-7 to 4e-9, the natural map unchanged). 3-16%
    // fewer iterations on six robots' reduced problems, but more steps left above tol in the G1
    // 23's perturbed falls (docs/performance.md, "The short-step test").
    if (S.stall_window > 0 && alpha < S.stall_step) stall(res, it);
    w.lam.swap(w.trial);
    A.multiply(w.lam, w.v);  // afresh, so that the stopping test sees no accumulated drift
    w.v += p.v_f;
    theta = natural_map(p, w.lam, w.v, w.rho, w.F, &w.dP);
    w.merits[(it + 1) % memory] = theta;
  }
  // Converged: the last iterate; otherwise the best one met (lowest natural map).
  sol.lambda = sol.status == SolveStatus::Converged ? w.lam : w.best;
  sol.residual = best;
}

}  // namespace moreau
