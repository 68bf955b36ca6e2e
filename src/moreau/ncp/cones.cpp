#include "moreau/ncp/cones.hpp"

namespace moreau {

Vec3 project_coulomb(const Vec3& x, double mu) {
  const double t = std::hypot(x[0], x[1]);
  const double n = x[2];
  if (t <= mu * n && n >= 0.0) return x;  // inside K_mu (n >= 0 matters for mu = 0: a ray)
  if (mu * t <= -n) return Vec3::Zero();  // inside the polar cone
  if (t == 0.0) return Vec3(0.0, 0.0, n > 0.0 ? n : 0.0);  // mu = 0 and n > 0 handled above; guard
  const double a = (mu * t + n) / (mu * mu + 1.0);         // eq. 150, third case
  return Vec3(mu * a * x[0] / t, mu * a * x[1] / t, a);
}

Vec3 project_dual_coulomb(const Vec3& x, double mu) {
  const double t = std::hypot(x[0], x[1]);
  const double n = x[2];
  if (mu * t <= n) return x;                        // inside K*_mu
  if (t <= -mu * n) return Vec3::Zero();            // inside -K_mu
  const double a = (t + mu * n) / (1.0 + mu * mu);  // eq. 151, third case (t > 0 here)
  return Vec3(a * x[0] / t, a * x[1] / t, mu * a);
}

}  // namespace moreau
