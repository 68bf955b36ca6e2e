// Each joint type leaves exactly its DoFs (null space of J), its Jacobian is the derivative of its
// residual, and its DoF coordinates read back the motion that produced the pose.
#include <gtest/gtest.h>

#include <random>

#include "moreau/dynamics/builder.hpp"
#include "moreau/math/so3.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

Vec3 rnd(std::mt19937& g, double s) {
  std::uniform_real_distribution<double> u(-s, s);
  return Vec3(u(g), u(g), u(g));
}

// Relative motion of the follower joint frame in the base joint frame for DoF values q.
Pose joint_motion(JointType t, const Vec6& q) {
  Pose m;
  switch (t) {
    case JointType::Free:
      m.p = q.head<3>();
      m.q = quat_exp(q.tail<3>());
      break;
    case JointType::Revolute:
      m.q = quat_exp(Vec3(q[0], 0, 0));
      break;
    case JointType::Prismatic:
      m.p = Vec3(q[0], 0, 0);
      break;
    case JointType::Cylindrical:
      m.p = Vec3(q[0], 0, 0);
      m.q = quat_exp(Vec3(q[1], 0, 0));
      break;
    case JointType::Universal:
      m.q = quat_exp(Vec3(q[0], 0, 0)) * quat_exp(Vec3(0, q[1], 0));
      break;
    case JointType::Spherical:
      m.q = quat_exp(q.head<3>());
      break;
    case JointType::Cartesian:
      m.p = q.head<3>();
      break;
    case JointType::Fixed:
    case JointType::Sequence:  // not in AllTypes: tests/io/test_mjcf_sequence.cpp
      break;
  }
  return m;
}

struct JointCase {
  Model model;
  State state;
  Vec6 q;
};

// Two bodies with random masses, inertias, poses and joint frames; follower placed by q.
JointCase make_setup(JointType t, std::mt19937& g, bool unary) {
  ModelBuilder mb("pair");
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = "b" + std::to_string(i);
    b.mass = 1.0 + std::abs(rnd(g, 2).x());
    const Mat3 R = so3_exp(rnd(g, 3));
    b.inertia = R * Vec3(0.5, 0.7, 0.9).asDiagonal() * R.transpose();
    mb.add_body(b);
  }
  Joint j;
  j.type = t;
  j.name = "j";
  j.base = unary ? -1 : 0;
  j.follower = 1;
  j.frame_base = {rnd(g, 0.5), quat_exp(rnd(g, 3))};
  j.frame_follower = {rnd(g, 0.5), quat_exp(rnd(g, 3))};
  mb.add_joint(j);
  JointCase s{*mb.build(), State::zeros(2), Vec6::Zero()};
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  for (int k = 0; k < 6; ++k) s.q[k] = u(g);
  s.state.r[0] = rnd(g, 1);
  s.state.q[0] = quat_exp(rnd(g, 3));
  const Pose base = unary ? j.frame_base : s.state.pose(0) * j.frame_base;
  const Pose follower_frame = base * joint_motion(t, s.q);
  const Pose body = follower_frame * j.frame_follower.inverse();
  s.state.r[1] = body.p;
  s.state.q[1] = body.q;
  for (int i = 0; i < 2; ++i) s.state.u[i] << rnd(g, 1), rnd(g, 1);
  return s;
}

// Twist of body 1 (base fixed) moving the follower joint frame along DoF axis k.
Vec6 dof_twist(JointType t, const Joint& j, const State& s, int k, const Vec6& q) {
  const Pose B = j.base >= 0 ? s.pose(j.base) * j.frame_base : j.frame_base;
  const Pose F = s.pose(j.follower) * j.frame_follower;
  const Mat3 Rb = B.R(), Rf = F.R();
  Vec3 lin = Vec3::Zero(), ang = Vec3::Zero();
  auto rot = [&](const Vec3& axis) {
    ang = axis;
    lin = axis.cross(s.r[j.follower] - F.p);
  };
  switch (t) {
    case JointType::Revolute:
      rot(Rb.col(0));
      break;
    case JointType::Prismatic:
      lin = Rb.col(0);
      break;
    case JointType::Cylindrical:
      k == 0 ? (void)(lin = Rb.col(0)) : rot(Rb.col(0));
      break;
    case JointType::Universal:
      rot(k == 0 ? Rb.col(0) : Rf.col(1));
      break;
    case JointType::Spherical:
      rot(Rb.col(k));
      break;
    case JointType::Cartesian:
      lin = Rb.col(k);
      break;
    case JointType::Free:
      k < 3 ? (void)(lin = Rb.col(k)) : rot(Rb.col(k - 3));
      break;
    case JointType::Fixed:
    case JointType::Sequence:
      break;
  }
  (void)q;
  Vec6 u;
  u << lin, ang;
  return u;
}

class JointTypes : public ::testing::TestWithParam<std::tuple<JointType, bool>> {};

}  // namespace

TEST_P(JointTypes, NullSpaceHasTheJointsDofs) {
  const auto [type, unary] = GetParam();
  std::mt19937 g(11 + static_cast<int>(type));
  for (int trial = 0; trial < 20; ++trial) {
    JointCase s = make_setup(type, g, unary);
    const Joint& j = s.model.joints()[0];
    const MatX J = joint_jacobian(s.model, s.state);
    const int m = joint_constraint_rows(type), d = 6 - m;
    ASSERT_EQ(J.rows(), m);
    // Residual is zero at the constructed pose.
    const VecX f = joint_residual(s.model, s.state);
    if (m > 0) {
      EXPECT_LE(f.cwiseAbs().maxCoeff(), 1e-12);
    }
    // Rank m: with the base held, the follower has exactly d free directions.
    const MatX Jf = J.rightCols<6>();
    EXPECT_EQ(numerical_rank(Jf), m);
    // The DoF motions lie in the null space.
    for (int k = 0; k < d; ++k) {
      VecX u = VecX::Zero(12);
      u.tail<6>() = dof_twist(type, j, s.state, k, s.q);
      if (m > 0) {
        EXPECT_LE((J * u).cwiseAbs().maxCoeff(), 1e-12) << joint_type_name(type) << " dof " << k;
      }
    }
    // Moving both bodies rigidly together is free for binary joints.
    if (!unary && m > 0) {
      const Vec3 w = rnd(g, 1), v = rnd(g, 1);
      VecX u(12);
      for (int b = 0; b < 2; ++b) u.segment<6>(6 * b) << v + w.cross(s.state.r[b]), w;
      EXPECT_LE((J * u).cwiseAbs().maxCoeff(), 1e-12);
    }
  }
}

TEST_P(JointTypes, DofCoordinatesReadBackTheMotion) {
  const auto [type, unary] = GetParam();
  std::mt19937 g(101 + static_cast<int>(type));
  for (int trial = 0; trial < 20; ++trial) {
    JointCase s = make_setup(type, g, unary);
    const Joint& j = s.model.joints()[0];
    for (int k = 0; k < j.dofs(); ++k) {
      double q, qd;
      joint_dof_state(j, s.state, k, &q, &qd);
      double expected = s.q[k];
      if (type == JointType::Spherical || type == JointType::Free) {
        // rotation-vector coordinates
        const Vec3 rv = type == JointType::Free ? s.q.tail<3>() : Vec3(s.q.head<3>());
        expected =
            k < 3 && type == JointType::Free ? s.q[k] : rv[type == JointType::Free ? k - 3 : k];
      }
      EXPECT_NEAR(q, expected, 1e-12) << joint_type_name(type) << " dof " << k;
    }
  }
}

TEST_P(JointTypes, JacobianIsTheDerivativeOfTheResidual) {
  const auto [type, unary] = GetParam();
  if (joint_constraint_rows(type) == 0) GTEST_SKIP() << "no constraint rows";
  std::mt19937 g(201 + static_cast<int>(type));
  for (int trial = 0; trial < 10; ++trial) {
    JointCase s = make_setup(type, g, unary);
    const MatX J = joint_jacobian(s.model, s.state);
    VecX u(12);
    for (int b = 0; b < 2; ++b) u.segment<6>(6 * b) = s.state.u[b];
    // central difference of f along s [+] h u
    const double h = 1e-6;
    State sp = s.state, sm = s.state;
    integrate_positions(sp, s.state.u, h);
    integrate_positions(sm, s.state.u, -h);
    const VecX fd = (joint_residual(s.model, sp) - joint_residual(s.model, sm)) / (2 * h);
    EXPECT_LE((fd - J * u).cwiseAbs().maxCoeff(), 1e-7) << joint_type_name(type);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, JointTypes,
    ::testing::Combine(::testing::Values(JointType::Free, JointType::Revolute, JointType::Prismatic,
                                         JointType::Cylindrical, JointType::Universal,
                                         JointType::Spherical, JointType::Cartesian,
                                         JointType::Fixed),
                       ::testing::Bool()),
    [](const auto& info) {
      return std::string(joint_type_name(std::get<0>(info.param))) +
             (std::get<1>(info.param) ? "Unary" : "Binary");
    });
