#pragma once
// Fixed-size linear-algebra types used everywhere in moreau (double precision, SI units).
#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace moreau {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
// Unit quaternion, Hamilton convention. Eigen stores (x, y, z, w) internally; moreau's files
// and APIs always spell quaternions as (w, x, y, z).
using Quat = Eigen::Quaterniond;

// |(x, y)| without std::hypot's guard against overflow (slow in glibc; the solvers' and the
// collision's inner loops call it per contact and iteration): exact to round-off for |x|, |y|
// below 1e150.
inline double norm2(double x, double y) {
  return std::sqrt(x * x + y * y);
}

// R(q) v for a unit quaternion: Eigen's QuaternionBase::_transformVector (v + 2 w (q_v x v) + q_v x
// 2 (q_v x v)), the same operations in the same order, inline (GCC calls Eigen's out of line: a
// function call per rotation in the joint and pose loops, and this one too unless forced).
EIGEN_ALWAYS_INLINE Vec3 rotate(const Quat& q, const Vec3& v) {
  const double x = q.x(), y = q.y(), z = q.z();
  Vec3 uv(y * v.z() - z * v.y(), z * v.x() - x * v.z(), x * v.y() - y * v.x());
  uv += uv;
  return v + q.w() * uv +
         Vec3(y * uv.z() - z * uv.y(), z * uv.x() - x * uv.z(), x * uv.y() - y * uv.x());
}

// A rigid transform: x_world = p + R(q) x_local.
struct Pose {
  Vec3 p = Vec3::Zero();
  Quat q = Quat::Identity();

  EIGEN_ALWAYS_INLINE Vec3 operator*(const Vec3& x) const { return p + rotate(q, x); }
  EIGEN_ALWAYS_INLINE Pose operator*(const Pose& b) const {
    return {p + rotate(q, b.p), (q * b.q).normalized()};
  }
  Pose inverse() const {
    const Quat qi = q.conjugate();
    return {-rotate(qi, p), qi};
  }
  Mat3 R() const { return q.toRotationMatrix(); }
};

}  // namespace moreau
