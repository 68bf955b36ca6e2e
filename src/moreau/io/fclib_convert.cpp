// FCLib local / global data -> Problem (no HDF5 here; fclib_hdf5.cpp reads the files).
#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/SparseCholesky>

#include "moreau/io/fclib.hpp"

namespace moreau {

namespace {
Error bad(const std::string& file, const std::string& element, const std::string& expected,
          const std::string& got) {
  return Error{file, 0, element, expected, got};
}

// Relative asymmetry max|W - W^T| / max|W|.
double relative_asymmetry(const Eigen::SparseMatrix<double>& W) {
  const Eigen::SparseMatrix<double> T = W.transpose();
  const Eigen::SparseMatrix<double> diff = W - T;
  double dmax = 0.0, wmax = 0.0;
  for (int k = 0; k < diff.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(diff, k); it; ++it)
      dmax = std::max(dmax, std::abs(it.value()));
  for (int k = 0; k < W.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(W, k); it; ++it)
      wmax = std::max(wmax, std::abs(it.value()));
  return wmax > 0.0 ? dmax / wmax : 0.0;
}

// X = L^-1 B for the unit lower triangular factor L of a sparse Cholesky or LDL^T factorization,
// stored without its diagonal (SimplicialLDLT's), and a sparse B, column by column: x's pattern is
// the set of rows reachable from b's up L's elimination tree (Gilbert & Peierls), solved in
// increasing row order. The walk relies on a factor's pattern (every row below the diagonal of
// column j is an ancestor of j), not on any unit lower triangular L. Eigen's sparse-sparse
// triangular solve reads a column's diagonal entry, which this L does not store.
Eigen::SparseMatrix<double> unit_lower_solve(const Eigen::SparseMatrix<double>& L,
                                             const Eigen::SparseMatrix<double>& B) {
  using SpMat = Eigen::SparseMatrix<double>;
  const int n = static_cast<int>(L.cols());
  std::vector<int> parent(n, -1);  // the first row below the diagonal in each column
  for (int j = 0; j < n; ++j)
    for (SpMat::InnerIterator it(L, j); it; ++it)
      if (it.row() > j && (parent[j] < 0 || it.row() < parent[j]))
        parent[j] = static_cast<int>(it.row());
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<double> x(n, 0.0);
  std::vector<int> mark(n, -1), reach;
  for (int c = 0; c < B.outerSize(); ++c) {
    reach.clear();
    for (SpMat::InnerIterator it(B, c); it; ++it) {
      x[it.row()] += it.value();
      for (int i = static_cast<int>(it.row()); i >= 0 && mark[i] != c; i = parent[i]) {
        mark[i] = c;
        reach.push_back(i);
      }
    }
    std::sort(reach.begin(), reach.end());
    for (int j : reach) {
      for (SpMat::InnerIterator it(L, j); it; ++it)
        if (it.row() > j) {
          eigen_assert(mark[it.row()] == c);  // an ancestor of j: in the reach
          x[it.row()] -= it.value() * x[j];
        }
      if (x[j] != 0.0) entries.emplace_back(j, c, x[j]);
      x[j] = 0.0;
    }
  }
  SpMat X(n, B.cols());
  X.setFromTriplets(entries.begin(), entries.end());
  return X;
}

// D = W with rows and columns permuted to [t, o, n] per contact, stored as 3x3 blocks: a block
// (i, j) is stored when W has any stored entry in it; every diagonal block is stored.
void fill_delassus(const Eigen::SparseMatrix<double>& W, int nc, BlockSparse& D) {
  std::vector<std::vector<int>> cols(nc);
  for (int i = 0; i < nc; ++i) cols[i].push_back(i);
  for (int k = 0; k < W.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(W, k); it; ++it)
      cols[it.row() / 3].push_back(static_cast<int>(it.col()) / 3);
  const std::vector<int> sizes(nc, 3);
  D.begin(sizes.data(), nc);
  for (int i = 0; i < nc; ++i) {
    std::sort(cols[i].begin(), cols[i].end());
    cols[i].erase(std::unique(cols[i].begin(), cols[i].end()), cols[i].end());
    for (int j : cols[i]) D.push_entry(i, j);
  }
  D.finalize();
  constexpr int kInv[3] = {2, 0, 1};  // moreau coordinate of FCLib coordinate [n, t1, t2]
  for (int k = 0; k < W.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(W, k); it; ++it) {
      const int r = static_cast<int>(it.row()), c = static_cast<int>(it.col());
      const int i = r / 3, j = c / 3;
      const auto& ci = cols[i];
      const int e =
          D.row_start(i) + static_cast<int>(std::lower_bound(ci.begin(), ci.end(), j) - ci.begin());
      D.entry(e)(kInv[r % 3], kInv[c % 3]) += it.value();
    }
}
}  // namespace

Result<FclibProblem> fclib_local_problem(const Eigen::SparseMatrix<double>& W, const VecX& q,
                                         const VecX& mu, const std::string& file) {
  const int m = static_cast<int>(W.rows());
  if (W.cols() != m || m % 3 != 0)
    return bad(file, "W", "a square matrix with 3 rows per contact",
               std::to_string(W.rows()) + " x " + std::to_string(W.cols()));
  const int nc = m / 3;
  if (q.size() != m)
    return bad(file, "q", std::to_string(m) + " entries", std::to_string(q.size()));
  if (mu.size() != nc)
    return bad(file, "dataset vectors/mu", std::to_string(nc) + " entries (one per contact)",
               std::to_string(mu.size()));
  for (int k = 0; k < W.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(W, k); it; ++it)
      if (!std::isfinite(it.value()))
        return bad(file,
                   "dataset W(" + std::to_string(it.row()) + ", " + std::to_string(it.col()) + ")",
                   "a finite number", std::to_string(it.value()));
  for (int k = 0; k < m; ++k)
    if (!std::isfinite(q[k]))
      return bad(file, "dataset vectors/q[" + std::to_string(k) + "]", "a finite number",
                 std::to_string(q[k]));
  for (int k = 0; k < nc; ++k)
    if (!std::isfinite(mu[k]) || mu[k] < 0.0)
      return bad(file, "dataset vectors/mu[" + std::to_string(k) + "]",
                 "a finite friction coefficient >= 0", std::to_string(mu[k]));
  FclibProblem out;
  out.kind = "local";
  out.contacts = nc;
  out.asymmetry = relative_asymmetry(W);
  Problem& p = out.problem;
  p.nl = m;
  p.num_bodies = 0;
  p.blocks.resize(nc);
  p.v_f.resize(m);
  for (int c = 0; c < nc; ++c) {
    ConstraintBlock& b = p.blocks[c];
    b.kind = RowKind::Contact;
    b.cone = ConeKind::Coulomb;
    b.offset = 3 * c;
    b.size = 3;
    b.mu = mu[c];
    b.id = static_cast<uint64_t>(c);
    b.source = c;
    b.J[0].setZero();
    b.J[1].setZero();
    for (int k = 0; k < 3; ++k) p.v_f[3 * c + k] = q[3 * c + fclib_coordinate(k)];
  }
  fill_delassus(W, nc, p.D);
  p.v_minus = VecX::Zero(m);
  p.f = VecX::Zero(m);
  return out;
}

Result<FclibProblem> fclib_global_problem(const Eigen::SparseMatrix<double>& M,
                                          const Eigen::SparseMatrix<double>& H, const VecX& f,
                                          const VecX& w, const VecX& mu, const std::string& file) {
  const int n = static_cast<int>(M.rows()), m = static_cast<int>(H.cols());
  if (M.cols() != n)
    return bad(file, "M", "a square matrix", std::to_string(n) + " x " + std::to_string(M.cols()));
  if (H.rows() != n)
    return bad(file, "H", std::to_string(n) + " rows (the size of M)", std::to_string(H.rows()));
  if (f.size() != n)
    return bad(file, "f", std::to_string(n) + " entries", std::to_string(f.size()));
  if (w.size() != m)
    return bad(file, "w", std::to_string(m) + " entries", std::to_string(w.size()));
  if (!f.allFinite() || !w.allFinite()) return bad(file, "f, w", "finite numbers", "non-finite");
  using SpMat = Eigen::SparseMatrix<double>;
  Eigen::SimplicialLDLT<SpMat> ldlt(M);  // P M P^T = L D L^T
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().array() > 0.0).all())
    return bad(file, "M", "a symmetric positive definite mass matrix", "LDLT failed");
  // W = H^T M^-1 H = X^T D^-1 X with X = L^-1 P H, sparse throughout: X keeps H's pattern where M
  // is block-diagonal (one block per body, as FCLib's global problems store it).
  const SpMat X = unit_lower_solve(ldlt.matrixL().nestedExpression(), ldlt.permutationP() * H);
  const VecX d_inv = ldlt.vectorD().cwiseInverse();
  SpMat W = SpMat(X.transpose() * d_inv.asDiagonal()) * X;
  W.prune([](Eigen::Index, Eigen::Index, double v) { return v != 0.0; });  // exact zeros dropped
  const VecX q = H.transpose() * ldlt.solve(f) + w;
  bool finite = q.allFinite();
  for (int k = 0; k < W.nonZeros(); ++k) finite = finite && std::isfinite(W.valuePtr()[k]);
  if (!finite) return bad(file, "M", "a well-conditioned mass matrix", "non-finite H^T M^-1 H");
  Result<FclibProblem> r = fclib_local_problem(W, q, mu, file);
  if (r) r->kind = "global";
  return r;
}

}  // namespace moreau
