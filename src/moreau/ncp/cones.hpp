#pragma once
#include <algorithm>
// Single-contact cone projectors and the De Saxce operator (report eq. 50, 147-151).
// Contact blocks are ordered [t, o, n]: x[0], x[1] tangential, x[2] normal.
#include <cmath>

#include "moreau/math/types.hpp"

namespace moreau {

// P_{R+}(x) = max(0, x)   (eq. 147)
inline double project_orthant(double x) {
  return x > 0.0 ? x : 0.0;
}

// Projection onto the interval [-bound, bound] (a joint's dry friction, ConeKind::Box).
inline double project_box(double x, double bound) {
  return std::clamp(x, -bound, bound);
}

// P_{D(r)}(x): the disk of radius r >= 0 in the tangent plane   (eq. 148)
inline Eigen::Vector2d project_disk(const Eigen::Vector2d& x, double r) {
  const double n = x.norm();
  if (n <= r) return x;
  return n > 0.0 ? Eigen::Vector2d(x * (r / n)) : Eigen::Vector2d::Zero();
}

// P_{K_mu}(x), K_mu = {|x_T| <= mu x_n}   (eq. 150). mu = 0: the normal ray.
inline Vec3 project_coulomb(const Vec3& x, double mu) {
  const double t = norm2(x[0], x[1]);
  const double n = x[2];
  if (t <= mu * n && n >= 0.0) return x;  // inside K_mu (n >= 0 matters for mu = 0: a ray)
  if (mu * t <= -n) return Vec3::Zero();  // inside the polar cone
  if (t == 0.0) return Vec3(0.0, 0.0, n > 0.0 ? n : 0.0);  // mu = 0 and n > 0 handled above; guard
  const double a = (mu * t + n) / (mu * mu + 1.0);         // eq. 150, third case
  return Vec3(mu * a * x[0] / t, mu * a * x[1] / t, a);
}

// P_{K*_mu}(x), K*_mu = K_{1/mu} = {mu |x_T| <= x_n}   (eq. 151). mu = 0: the half-space x_n >= 0.
Vec3 project_dual_coulomb(const Vec3& x, double mu);

// Polar cone K° = -K*: P_{K°}(x) = x - P_K(x) (Moreau decomposition).
inline Vec3 project_polar_coulomb(const Vec3& x, double mu) {
  return x - project_coulomb(x, mu);
}

inline bool in_coulomb(const Vec3& x, double mu, double tol) {
  return x[2] >= -tol && norm2(x[0], x[1]) <= mu * x[2] + tol;
}
inline bool in_dual_coulomb(const Vec3& x, double mu, double tol) {
  return mu * norm2(x[0], x[1]) <= x[2] + tol;
}

// Gamma(v) = [0, 0, mu |v_T|]   (eq. 50, De Saxce correction)
inline Vec3 de_saxce(const Vec3& v, double mu) {
  return {0.0, 0.0, mu * norm2(v[0], v[1])};
}

}  // namespace moreau
