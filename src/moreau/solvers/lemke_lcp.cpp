// Lemke's complementary pivoting (Lemke 1965; Cottle, Pang & Stone 1992, ch. 4) on a dense LCP,
// with an explicit basis inverse updated by Gauss-Jordan pivots and the lexicographic
// minimum-ratio rule (no cycling on degenerate problems).
#include <algorithm>
#include <cmath>

#include <Eigen/LU>

#include "moreau/solvers/lemke.hpp"
#include "moreau/solvers/stop.hpp"

namespace moreau::lemke {

const char* result_name(Result r) {
  switch (r) {
    case Result::Solution:
      return "solution";
    case Result::RayTermination:
      return "ray termination";
    case Result::MaxPivots:
      return "pivot limit";
  }
  return "?";
}

namespace {
// Column of variable v in I w - M z - d z0 = q, premultiplied by B^-1, into t.col.
void entering_column(const MatX& M, const VecX& d, int v, Tableau& t) {
  const int n = static_cast<int>(M.rows());
  if (v < n)
    t.col = t.Binv.col(v);
  else if (v < 2 * n)
    t.col.noalias() = -(t.Binv * M.col(v - n));
  else
    t.col.noalias() = -(t.Binv * d);
}

// Gauss-Jordan pivot on row r with the entering column t.col.
void pivot(int r, Tableau& t) {
  const int n = static_cast<int>(t.xB.size());
  const double ar = t.col[r];
  t.Binv.row(r) /= ar;
  t.xB[r] /= ar;
  for (int i = 0; i < n; ++i) {
    if (i == r || t.col[i] == 0.0) continue;
    t.Binv.row(i) -= t.col[i] * t.Binv.row(r);
    t.xB[i] -= t.col[i] * t.xB[r];
  }
}

// Lexicographic minimum-ratio test; -1 when no row bounds the entering variable (a ray).
// Pivot candidates are the entries above pivot_tol times the column's largest entry: a relative
// threshold, so that a round-off entry of a degenerate row is not chosen as the pivot (pivoting
// on one scales the basis by its inverse and loses feasibility). Only when no entry passes it
// are entries above kTinyPivot times the largest entry considered before declaring a ray.
constexpr double kTinyPivot = 1e-12;
int ratio_test(int z0, double pivot_tol, Tableau& t) {
  const int n = static_cast<int>(t.xB.size());
  const double cmax = t.col.cwiseAbs().maxCoeff();
  double tol = pivot_tol * cmax;
  if (!(t.col.maxCoeff() > tol)) tol = kTinyPivot * cmax;
  double best = INFINITY;
  for (int i = 0; i < n; ++i)
    if (t.col[i] > tol) best = std::min(best, std::max(0.0, t.xB[i]) / t.col[i]);
  if (best == INFINITY) return -1;
  t.ties.clear();
  const double slack = 1e-12 * std::max(1.0, best);
  for (int i = 0; i < n; ++i)
    if (t.col[i] > tol && std::max(0.0, t.xB[i]) / t.col[i] <= best + slack) t.ties.push_back(i);
  for (int i : t.ties)
    if (t.basis[i] == z0) return i;  // z0 leaves as soon as it can: a solution
  // Ties broken by the rows of B^-1 scaled by 1 / a_i, lexicographically.
  for (int k = 0; k < n && t.ties.size() > 1; ++k) {
    double lo = INFINITY;
    for (int i : t.ties) lo = std::min(lo, t.Binv(i, k) / t.col[i]);
    size_t keep = 0;
    for (int i : t.ties)
      if (t.Binv(i, k) / t.col[i] <= lo + 1e-14) t.ties[keep++] = i;
    t.ties.resize(keep);
  }
  return t.ties.front();
}

// z from the final basis, refined by one LU solve of the basis matrix (removes the round-off
// that the product-form updates accumulate).
void extract(const MatX& M, const VecX& q, Tableau& t, VecX& z) {
  const int n = static_cast<int>(q.size());
  t.basis_matrix.resize(n, n);
  for (int i = 0; i < n; ++i) {
    const int v = t.basis[i];
    if (v < n)
      t.basis_matrix.col(i) = VecX::Unit(n, v);
    else
      t.basis_matrix.col(i) = -M.col(v - n);
  }
  Eigen::PartialPivLU<MatX> lu(t.basis_matrix);
  t.refined = lu.solve(q);
  const bool ok = t.refined.allFinite() && (t.refined - t.xB).cwiseAbs().maxCoeff() <=
                                               1e-6 * std::max(1.0, t.xB.cwiseAbs().maxCoeff());
  z.setZero(n);
  for (int i = 0; i < n; ++i)
    if (t.basis[i] >= n) z[t.basis[i] - n] = std::max(0.0, ok ? t.refined[i] : t.xB[i]);
}
}  // namespace

Result solve_lcp(const MatX& M, const VecX& q, const VecX& d, int max_pivots, double tol,
                 Tableau& t, VecX& z, int* pivots) {
  const int n = static_cast<int>(q.size());
  *pivots = 0;
  z.setZero(n);
  if (n == 0 || q.minCoeff() >= 0.0) return Result::Solution;  // z = 0, w = q
  t.Binv.setIdentity(n, n);
  t.xB = q;
  t.col.resize(n);
  t.basis.resize(n);
  t.ties.reserve(n);
  for (int i = 0; i < n; ++i) t.basis[i] = i;
  const int z0 = 2 * n;
  // z0 enters where q_i / d_i is most negative (ties: the last such row).
  int r = 0;
  for (int i = 1; i < n; ++i)
    if (q[i] / d[i] <= q[r] / d[r]) r = i;
  entering_column(M, d, z0, t);
  pivot(r, t);
  int leaving = t.basis[r];
  t.basis[r] = z0;
  *pivots = 1;
  // should_stop (solvers/stop.hpp): a signal or the step's time budget ends it as MaxPivots.
  while (*pivots < max_pivots && !should_stop()) {
    const int entering = leaving < n ? leaving + n : leaving - n;  // complement of the leaver
    entering_column(M, d, entering, t);
    r = ratio_test(z0, tol, t);
    if (r < 0) return Result::RayTermination;
    t.xB[r] = std::max(0.0, t.xB[r]);  // as the ratio test saw it: round-off never pivots in < 0
    pivot(r, t);
    leaving = t.basis[r];
    t.basis[r] = entering;
    ++*pivots;
    if (leaving == z0) {
      extract(M, q, t, z);
      return Result::Solution;
    }
  }
  return Result::MaxPivots;
}

double lcp_residual(const MatX& M, const VecX& q, const VecX& z) {
  const VecX w = M * z + q;
  double r = 0.0;
  for (int i = 0; i < z.size(); ++i) r = std::max(r, std::abs(std::min(z[i], w[i])));
  return r;
}

}  // namespace moreau::lemke
