#pragma once
// Material combination rule of a geometry pair (docs/collision.md):
//   friction     mu = sqrt(mu_A mu_B)   (geometric mean: a frictionless side makes the pair
//                frictionless)
//   restitution  e  = max(e_A, e_B)     (the bouncier side wins)
//   stiffness    1/k = 1/k_A + 1/k_B    (springs in series, as Drake; a rigid side, k = inf,
//                adds no compliance; inf when both are rigid)
//   tau_d        c_A/(c_A+c_B) tau_A + c_B/(c_A+c_B) tau_B, c = 1/k: the compliance-weighted
//                mean, i.e. two Kelvin-Voigt layers k(1 + s tau) in series matched to first
//                order in s (the softer side dominates; a rigid side's tau does not count); the
//                plain mean when both are rigid; an unset side (NaN) takes the other's value
#include <algorithm>
#include <cmath>

#include "moreau/model/geometry.hpp"

namespace moreau {

inline double combine_friction(const Material& a, const Material& b) {
  return std::sqrt(a.friction * b.friction);
}
inline double combine_restitution(const Material& a, const Material& b) {
  return std::max(a.restitution, b.restitution);
}
inline double combine_stiffness(const Material& a, const Material& b) {
  if (std::isinf(a.stiffness)) return b.stiffness;
  if (std::isinf(b.stiffness)) return a.stiffness;
  return a.stiffness * b.stiffness / (a.stiffness + b.stiffness);
}
inline double combine_tau_d(const Material& a, const Material& b) {
  if (std::isnan(a.tau_d)) return b.tau_d;
  if (std::isnan(b.tau_d)) return a.tau_d;
  const double ca = 1.0 / a.stiffness, cb = 1.0 / b.stiffness;  // 0 when rigid
  if (ca + cb == 0.0) return 0.5 * (a.tau_d + b.tau_d);
  return (ca * a.tau_d + cb * b.tau_d) / (ca + cb);
}

}  // namespace moreau
