#pragma once
// SO(3) and unit quaternions: skew matrices, exponential and logarithm maps.
#include <cmath>

#include "moreau/math/types.hpp"

namespace moreau {

// [x]x, the cross-product matrix: skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

// Exp: R^3 -> unit quaternions, the rotation by |w| about w/|w| (Taylor series near 0).
Quat quat_exp(const Vec3& w);
// Log: unit quaternions -> R^3, the rotation vector with angle in [0, pi] (inverse of quat_exp).
Vec3 quat_log(const Quat& q);
// Exp/Log on rotation matrices (Rodrigues), consistent with the quaternion versions.
Mat3 so3_exp(const Vec3& w);
Vec3 so3_log(const Mat3& R);

// q_{k+1} = Exp(dt w) (x) q_k   (eq. 10b, w in world frame: multiply on the left)
inline Quat integrate_rotation(const Quat& q, const Vec3& w_world, double dt) {
  return (quat_exp(dt * w_world) * q).normalized();
}

// True when |q| = 1 within tol and all coefficients finite.
bool is_unit_quaternion(const Quat& q, double tol = 1e-9);

// Rotation taking e_z to n, returned as the contact frame [t, o, n] (eq. 34): a right-handed
// orthonormal basis with n as third column. Continuous except near n = -e_z.
Mat3 frame_from_normal(const Vec3& n);

}  // namespace moreau
