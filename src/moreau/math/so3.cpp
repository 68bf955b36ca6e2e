#include "moreau/math/so3.hpp"

#include <algorithm>

namespace moreau {

Quat quat_exp(const Vec3& w) {
  const double theta = w.norm();
  const double half = 0.5 * theta;
  double s;  // sin(theta/2) / theta
  if (theta < 1e-6) {
    const double t2 = theta * theta;
    s = 0.5 - t2 / 48.0 + t2 * t2 / 3840.0;
  } else {
    s = std::sin(half) / theta;
  }
  return Quat(std::cos(half), s * w.x(), s * w.y(), s * w.z());
}

Vec3 quat_log(const Quat& q_in) {
  Quat q = q_in;
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // same rotation, angle in [0, pi]
  const Vec3 v = q.vec();
  const double sn = v.norm();
  const double c = q.w();
  double k;  // theta / sin(theta/2)
  if (sn < 1e-8) {
    // theta = 2 atan2(sn, c) ~ 2 sn / c (1 - sn^2 / (3 c^2))
    k = 2.0 / c * (1.0 - sn * sn / (3.0 * c * c));
  } else {
    k = 2.0 * std::atan2(sn, c) / sn;
  }
  return k * v;
}

Mat3 so3_exp(const Vec3& w) {
  return quat_exp(w).toRotationMatrix();
}

Vec3 so3_log(const Mat3& R) {
  return quat_log(Quat(R));
}

bool is_unit_quaternion(const Quat& q, double tol) {
  if (!q.coeffs().allFinite()) return false;
  return std::abs(q.norm() - 1.0) <= tol;
}

Mat3 frame_from_normal(const Vec3& n) {
  // Pick the world axis least aligned with n to build t; deterministic and well conditioned.
  Vec3 a = std::abs(n.x()) < 0.57735 ? Vec3::UnitX()
                                     : (std::abs(n.y()) < 0.57735 ? Vec3::UnitY() : Vec3::UnitZ());
  Vec3 t = (a - n * n.dot(a)).normalized();
  Vec3 o = n.cross(t);
  Mat3 C;
  C.col(0) = t;
  C.col(1) = o;
  C.col(2) = n;
  return C;
}

}  // namespace moreau
