#pragma once
// Penalty rules of proximal ADMM (Alg. 6 line 18): residual balancing (report eq. 171) and the
// spectral rule (eq. 172). Pure functions of the residuals, used by admm.cpp; the bounds
// rho_min / rho_max are applied by the caller.
#include <algorithm>
#include <cmath>

namespace moreau::admm_penalty {

// eq. 171: tau_inc rho when r_p > alpha r_d, rho / tau_dec when r_d > alpha r_p, else rho.
inline double linear_update(double rho, double rp, double rd, double alpha, double tau_inc,
                            double tau_dec) {
  if (rp > alpha * rd) return rho * tau_inc;
  if (rd > alpha * rp) return rho / tau_dec;
  return rho;
}

// eq. 172b: kappa^tau rho when r_p > alpha r_d, kappa^-tau rho when r_d > alpha r_p, else rho.
inline double spectral_update(double rho, double kappa, double rp, double rd, double alpha,
                              double tau) {
  const bool up = rp > alpha * rd, down = rd > alpha * rp;
  if (!up && !down) return rho;
  return rho * std::pow(kappa, up ? tau : -tau);
}

// eq. 172a with m := eta standing in for lambda_min: kappa = max(1, L / m) and
// rho_0 = sqrt(max(L, m) m) kappa^p0.
inline double spectral_initial(double L, double m, double p0, double* kappa) {
  *kappa = std::max(1.0, L / m);
  return std::sqrt(std::max(L, m) * m) * std::pow(*kappa, p0);
}

}  // namespace moreau::admm_penalty
