#pragma once
// Numerical rank and condition estimate of a Delassus matrix (report Sec. VII-B/C), for classify().
#include "moreau/dynamics/problem.hpp"

namespace moreau::bench {

struct Spectrum {
  int rank = 0;           // eigenvalues above tol
  double cond = 0.0;      // max eigenvalue / min eigenvalue above tol (+inf when none)
  bool estimate = false;  // true: pivoted LDLT diagonal instead of eigenvalues (nl > kDenseLimit)
};

// Exact eigenvalues up to this size; larger problems use the pivoted LDLT estimate.
inline constexpr int kSpectrumDenseLimit = 1500;

// Rank and conditioning of the symmetric part of A (+ diag(R) for the condition number when R
// has A's size; the rank is always that of A). tol = 10 n eps max|eig|.
Spectrum delassus_spectrum(const MatX& A, const VecX& R);

}  // namespace moreau::bench
