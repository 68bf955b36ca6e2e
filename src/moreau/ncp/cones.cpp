#include "moreau/ncp/cones.hpp"

namespace moreau {

Vec3 project_dual_coulomb(const Vec3& x, double mu) {
  const double t = norm2(x[0], x[1]);
  const double n = x[2];
  if (mu * t <= n) return x;                        // inside K*_mu
  if (t <= -mu * n) return Vec3::Zero();            // inside -K_mu
  const double a = (t + mu * n) / (1.0 + mu * mu);  // eq. 151, third case (t > 0 here)
  return Vec3(a * x[0] / t, a * x[1] / t, mu * a);
}

}  // namespace moreau
