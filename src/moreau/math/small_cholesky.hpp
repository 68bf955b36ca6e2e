#pragma once
// Cholesky of small dense SPD matrices (a joint's rows, a joint sequence's normal equations: n <=
// 6) on column-major n x n arrays, by hand: Eigen's dynamic-size LLT, LDLT and triangular kernels
// carry a general kernel's set-up that dominates at these sizes.
#include <cmath>

namespace moreau {

// A = L L^T in place (L in the lower triangle). False on a pivot that is not positive.
inline bool cholesky_in_place(double* A, int n) {
  for (int k = 0; k < n; ++k) {
    double d = A[k + k * n];
    for (int p = 0; p < k; ++p) d -= A[k + p * n] * A[k + p * n];
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    A[k + k * n] = l;
    for (int i = k + 1; i < n; ++i) {
      double s = A[i + k * n];
      for (int p = 0; p < k; ++p) s -= A[i + p * n] * A[k + p * n];
      A[i + k * n] = s / l;
    }
  }
  return true;
}

// x <- (L L^T)^-1 x with L from cholesky_in_place.
inline void cholesky_solve(const double* L, int n, double* x) {
  for (int k = 0; k < n; ++k) {
    double s = x[k];
    for (int p = 0; p < k; ++p) s -= L[k + p * n] * x[p];
    x[k] = s / L[k + k * n];
  }
  for (int k = n - 1; k >= 0; --k) {
    double s = x[k];
    for (int p = k + 1; p < n; ++p) s -= L[p + k * n] * x[p];
    x[k] = s / L[k + k * n];
  }
}

}  // namespace moreau
