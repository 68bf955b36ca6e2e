#pragma once
// Single-contact cone projectors and the De Saxce operator (report eq. 50, 147-151).
// Contact blocks are ordered [t, o, n]: x[0], x[1] tangential, x[2] normal.
#include <cmath>

#include "moreau/math/types.hpp"

namespace moreau {

// P_{R+}(x) = max(0, x)   (eq. 147)
inline double project_orthant(double x) {
  return x > 0.0 ? x : 0.0;
}

// P_{D(r)}(x): the disk of radius r >= 0 in the tangent plane   (eq. 148)
inline Eigen::Vector2d project_disk(const Eigen::Vector2d& x, double r) {
  const double n = x.norm();
  if (n <= r) return x;
  return n > 0.0 ? Eigen::Vector2d(x * (r / n)) : Eigen::Vector2d::Zero();
}

// P_{K_mu}(x), K_mu = {|x_T| <= mu x_n}   (eq. 150). mu = 0: the normal ray.
Vec3 project_coulomb(const Vec3& x, double mu);

// P_{K*_mu}(x), K*_mu = K_{1/mu} = {mu |x_T| <= x_n}   (eq. 151). mu = 0: the half-space x_n >= 0.
Vec3 project_dual_coulomb(const Vec3& x, double mu);

// Polar cone K° = -K*: P_{K°}(x) = x - P_K(x) (Moreau decomposition).
inline Vec3 project_polar_coulomb(const Vec3& x, double mu) {
  return x - project_coulomb(x, mu);
}

inline bool in_coulomb(const Vec3& x, double mu, double tol) {
  return x[2] >= -tol && std::hypot(x[0], x[1]) <= mu * x[2] + tol;
}
inline bool in_dual_coulomb(const Vec3& x, double mu, double tol) {
  return mu * std::hypot(x[0], x[1]) <= x[2] + tol;
}

// Gamma(v) = [0, 0, mu |v_T|]   (eq. 50, De Saxce correction)
inline Vec3 de_saxce(const Vec3& v, double mu) {
  return {0.0, 0.0, mu * std::hypot(v[0], v[1])};
}

}  // namespace moreau
