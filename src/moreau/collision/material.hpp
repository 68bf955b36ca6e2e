#pragma once
// Material combination rule of a geometry pair (docs/collision.md):
//   friction    mu = sqrt(mu_A mu_B)   (geometric mean: a frictionless side makes the pair
//   frictionless) restitution e  = max(e_A, e_B)     (the bouncier side wins)
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

}  // namespace moreau
