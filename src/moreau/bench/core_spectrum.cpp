#include "moreau/bench/core_spectrum.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace moreau::bench {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// tol = 10 n eps lambda_max: the usual rank threshold (LAPACK's n eps ||A||), with a margin of 10
// for the rounding of D = J M^-1 J^T itself.
double rank_tol(int n, double max_abs) {
  return 10.0 * n * kEps * max_abs;
}

// Exact: eigenvalues of a symmetric matrix, ascending.
VecX eigenvalues(const MatX& S) {
  Eigen::SelfAdjointEigenSolver<MatX> es(S, Eigen::EigenvaluesOnly);
  return es.eigenvalues();
}

// Cheap (O(n^3 / 3), no eigenvalues): the pivoted LDLT diagonal. Its entries bracket the
// spectrum loosely; rank = entries above tol, cond ~ max|d| / min|d| above tol. Documented as an
// estimate (SampleInfo::cond_D), used only above kSpectrumDenseLimit rows.
VecX ldlt_diagonal(const MatX& S) {
  Eigen::LDLT<MatX> ldlt(S);
  VecX d = ldlt.vectorD().cwiseAbs();
  std::sort(d.data(), d.data() + d.size());
  return d;
}

}  // namespace

Spectrum delassus_spectrum(const MatX& A, const VecX& R) {
  Spectrum out;
  const int n = static_cast<int>(A.rows());
  if (n == 0) return out;
  const MatX S = 0.5 * (A + A.transpose());  // FCLib W may be stored slightly asymmetric
  const bool soft = R.size() == n;
  out.estimate = n > kSpectrumDenseLimit;
  const VecX ev = out.estimate ? ldlt_diagonal(S) : eigenvalues(S);
  const double top = std::max(std::abs(ev[0]), std::abs(ev[n - 1]));
  const double tol = rank_tol(n, top);
  for (int i = 0; i < n; ++i) out.rank += ev[i] > tol;
  // Condition number of the matrix the solver sees: D, or D + R when softened (then full rank).
  VecX evc = ev;
  double tolc = tol;
  if (soft && R.cwiseAbs().maxCoeff() > 0.0) {
    MatX SR = S;
    SR.diagonal() += R;
    evc = out.estimate ? ldlt_diagonal(SR) : eigenvalues(SR);
    tolc = rank_tol(n, std::max(std::abs(evc[0]), std::abs(evc[n - 1])));
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (int i = 0; i < n; ++i)
    if (evc[i] > tolc) {
      lo = std::min(lo, evc[i]);
      hi = std::max(hi, evc[i]);
    }
  out.cond = hi > 0.0 ? hi / lo : std::numeric_limits<double>::infinity();
  return out;
}

}  // namespace moreau::bench
