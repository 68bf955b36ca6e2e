#include <gtest/gtest.h>

#include <random>

#include "moreau/math/so3.hpp"
#include "moreau/math/spatial.hpp"

using namespace moreau;

namespace {
Vec3 random_vec(std::mt19937& g, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(g), u(g), u(g));
}
}  // namespace

TEST(So3, SkewIsCrossProduct) {
  std::mt19937 g(1);
  for (int i = 0; i < 100; ++i) {
    const Vec3 a = random_vec(g, 3), b = random_vec(g, 3);
    EXPECT_LE((skew(a) * b - a.cross(b)).norm(), 1e-14);
    EXPECT_LE((skew(a) + skew(a).transpose()).norm(), 0.0);
  }
}

TEST(So3, ExpMatchesAngleAxis) {
  std::mt19937 g(2);
  for (int i = 0; i < 200; ++i) {
    const Vec3 w = random_vec(g, 3.0);
    const Mat3 R = Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix();
    EXPECT_LE((so3_exp(w) - R).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_NEAR(quat_exp(w).norm(), 1.0, 1e-15);
  }
}

TEST(So3, LogInvertsExpUpToPi) {
  std::mt19937 g(3);
  for (int i = 0; i < 500; ++i) {
    Vec3 w = random_vec(g, 1.0);
    w *= (i % 5 == 0 ? 1e-9 : 3.1) / w.norm() *
         std::abs(random_vec(g, 1.0).x());  // tiny and large angles
    EXPECT_LE((quat_log(quat_exp(w)) - w).norm(), 1e-12 * std::max(1.0, w.norm())) << w.transpose();
    EXPECT_LE((so3_log(so3_exp(w)) - w).norm(), 1e-9);
  }
  // Both quaternion signs give the same rotation vector.
  const Vec3 w(0.3, -0.2, 0.5);
  Quat q = quat_exp(w);
  q.coeffs() *= -1.0;
  EXPECT_LE((quat_log(q) - w).norm(), 1e-14);
}

TEST(So3, SmallAngleSeriesIsContinuous) {
  // The Taylor branch and the closed form agree across the switch at |w| = 1e-6.
  const Vec3 dir = Vec3(1, 2, 3).normalized();
  const Quat a = quat_exp(dir * 0.999999e-6), b = quat_exp(dir * 1.000001e-6);
  EXPECT_LE((a.coeffs() - b.coeffs()).norm(), 1e-11);
}

TEST(So3, IntegrateRotationIsWorldFrameLeftMultiplication) {
  // Spinning about world z at 1 rad/s for 1 s from a tilted pose rotates the pose about world z.
  const Quat q0(Eigen::AngleAxisd(0.4, Vec3::UnitX()));
  const Quat q1 = integrate_rotation(q0, Vec3(0, 0, 1), 1.0);
  const Quat expected = Quat(Eigen::AngleAxisd(1.0, Vec3::UnitZ())) * q0;
  EXPECT_LE(q1.angularDistance(expected), 1e-14);
}

TEST(So3, FrameFromNormalIsRightHandedWithNormalLast) {
  std::mt19937 g(4);
  for (int i = 0; i < 200; ++i) {
    const Vec3 n = random_vec(g, 1).normalized();
    const Mat3 C = frame_from_normal(n);
    EXPECT_LE((C.transpose() * C - Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_NEAR(C.determinant(), 1.0, 1e-14);
    EXPECT_LE((C.col(2) - n).norm(), 1e-15);
  }
}

TEST(So3, RotateIsEigensQuaternionProductBitForBit) {
  // rotate() replaces Eigen's q * v in the joint loops for speed only: the same operations in the
  // same order, so every trajectory stays bit-identical.
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int k = 0; k < 1000; ++k) {
    const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Vec3 v(u(rng), u(rng), 1e-9 * u(rng));
    const Vec3 a = rotate(q, v), b = q * v;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(a[i], b[i]) << k << " " << i;
  }
}

TEST(Spatial, WrenchShiftAndTwistShiftAreDual) {
  // Power is invariant: (W w)^T t_i == w^T (W^T t_i) with W the wrench shift of eq. 26b.
  std::mt19937 g(5);
  for (int i = 0; i < 100; ++i) {
    const Vec3 rj = random_vec(g, 2), ri = random_vec(g, 2);
    Vec6 w, t;
    w << random_vec(g, 1), random_vec(g, 1);
    t << random_vec(g, 1), random_vec(g, 1);
    const Vec6 wi = shift_wrench(w, rj, ri);
    EXPECT_LE((wi - wrench_shift(rj, ri) * w).norm(), 1e-14);
    // twist t given at r_i, velocity of point r_j: power of w at r_j == power of w_i at r_i
    const Vec6 tj = shift_twist(t, ri, rj);
    EXPECT_NEAR(wi.dot(t), w.dot(tj), 1e-13);
  }
}

TEST(Spatial, PoseComposeAndInverse) {
  std::mt19937 g(6);
  const Pose a{random_vec(g, 1), quat_exp(random_vec(g, 1))};
  const Pose b{random_vec(g, 1), quat_exp(random_vec(g, 1))};
  const Vec3 x = random_vec(g, 1);
  EXPECT_LE(((a * b) * x - a * (b * x)).norm(), 1e-14);
  EXPECT_LE(((a.inverse() * a) * x - x).norm(), 1e-14);
}
