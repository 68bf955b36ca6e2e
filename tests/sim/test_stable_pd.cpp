// Stable PD servos (Tan, Liu & Turk 2011; docs/dynamics.md): tau = kp (q*(t+dt) - q - dt qd+) +
// kd (qd*(t+dt) - qd+), qd+ solved for the follower's subtree about the joint. On a single body
// hinged to the world this is the exact 1-DoF implicit update
//   qd+ = (qd + dt (T0 + tau_g) / I) / (1 + dt (kd + dt kp) / I),   q+ = q + dt qd+,
// T0 = kp (q* - q) + kd qd*, I the inertia about the hinge and tau_g the gravity torque about it.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/dynamics/builder.hpp"
#include "moreau/model/primitives.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
constexpr double kServoDt = 1e-3;

struct ServoedHinge {
  Model model;
  State state;
  double inertia = 0.0;  // about the hinge [kg m^2]
};

// A box (mass 1, half extents 0.02 x 0.06 x 0.08) on a unary hinge about world x through the
// point `offset` above its CoM, so that the CoM hangs `offset` below the axis; `g` gravity.
ServoedHinge servoed_hinge(double offset, double g, double q0, const DofActuator& servo,
                           double damping = 0.0) {
  ModelBuilder mb("hinged");
  mb.set_gravity(Vec3(0, 0, -g));
  State s;
  const Body body = box_body("box", 1.0, Vec3(0.02, 0.06, 0.08));
  const double I = body.inertia(0, 0) + body.mass * offset * offset;
  const Vec3 pivot(0, 0, 1);
  // Rotated by q0 about x around the pivot.
  const Quat q(Eigen::AngleAxisd(q0, Vec3::UnitX()));
  const int b = add_body(mb, s, body, pivot + q * Vec3(0, 0, -offset), q, Vec6::Zero());
  State s0 = s;
  s0.q[b] = Quat::Identity();
  s0.r[b] = pivot + Vec3(0, 0, -offset);
  Joint j = joint_at("hinge", JointType::Revolute, -1, b, {pivot, axis_frame(Vec3::UnitX())}, s0);
  j.actuators[0] = servo;
  j.damping[0] = damping;
  mb.add_joint(j);
  return {*mb.build(), s, I};
}

SimSettings servo_settings() {
  SimSettings st;
  st.dt = kServoDt;
  st.solver = "direct";  // joints only: the exact solve
  return st;
}

DofActuator spd(double kp, double kd, double target) {
  DofActuator a;
  a.mode = ActuationMode::StablePd;
  a.kp = kp;
  a.kd = kd;
  a.target = target;
  return a;
}
}  // namespace

TEST(StablePd, SpinnerFollowsTheClosedFormBeyondTheExplicitLimit) {
  // CoM on the axis, no gravity: the update above with tau_g = 0, step after step. dt^2 kp / I =
  // 50 (explicit PD is unstable beyond 4) and dt kd / I = 20.
  ServoedHinge probe = servoed_hinge(0.0, 0.0, 0.0, {});
  const double kp = 50.0 * probe.inertia / (kServoDt * kServoDt),
               kd = 20.0 * probe.inertia / kServoDt;
  const double target = 0.4;
  ServoedHinge h = servoed_hinge(0.0, 0.0, 0.0, spd(kp, kd, target));
  Simulator sim(h.model, servo_settings());
  double q_ref = 0.0, qd_ref = 0.0;
  for (int k = 1; k <= 100; ++k) {
    ASSERT_TRUE(sim.step(h.state)) << sim.error();
    const double t0 = kp * (target - q_ref);
    qd_ref =
        (qd_ref + kServoDt * t0 / h.inertia) / (1.0 + kServoDt * (kd + kServoDt * kp) / h.inertia);
    q_ref += kServoDt * qd_ref;
    double q, qd;
    joint_dof_state(h.model.joints()[0], h.state, 0, &q, &qd);
    ASSERT_NEAR(qd, qd_ref, 1e-9 * (1.0 + std::abs(qd_ref))) << "step " << k;
    ASSERT_NEAR(q, q_ref, 1e-9) << "step " << k;
  }
  // Stable and converging, without overshoot for these gains.
  double q, qd;
  joint_dof_state(h.model.joints()[0], h.state, 0, &q, &qd);
  EXPECT_NEAR(q, target, 0.05 * target);
  EXPECT_LE(q, target + 1e-12);
}

TEST(StablePd, PendulumStepMatchesTheImplicitUpdateWithGravity) {
  // A pendulum (CoM 0.1 m below the hinge) at rest at q0 = 0.3 rad, servoed to 0: one step from
  // rest is the closed form with tau_g = -m g r sin(q0) about the hinge (I = I_c + m r^2).
  const double r = 0.1, g = 9.81, q0 = 0.3, kp = 40.0, kd = 2.0;
  ServoedHinge h = servoed_hinge(r, g, q0, spd(kp, kd, 0.0));
  double q, qd;
  joint_dof_state(h.model.joints()[0], h.state, 0, &q, &qd);
  ASSERT_NEAR(q, q0, 1e-14);
  Simulator sim(h.model, servo_settings());
  ASSERT_TRUE(sim.step(h.state)) << sim.error();
  const double tau_g = -1.0 * g * r * std::sin(q0);
  const double t0 = kp * (0.0 - q0);
  const double qd_ref =
      (kServoDt * (t0 + tau_g) / h.inertia) / (1.0 + kServoDt * (kd + kServoDt * kp) / h.inertia);
  joint_dof_state(h.model.joints()[0], h.state, 0, &q, &qd);
  EXPECT_NEAR(qd, qd_ref, 1e-9 * std::abs(qd_ref));
  EXPECT_NEAR(q, q0 + kServoDt * qd_ref, 1e-9);
}

TEST(StablePd, ServoHoldsThePendulumWhereItsSpringBalancesGravity) {
  // Static equilibrium of the servoed pendulum: kp (q* - q) = m g r sin(q). Started there, the
  // servo keeps it there (its full static force, no sag), as the exact 1-DoF SPD does.
  const double r = 0.1, g = 9.81, kp = 40.0, kd = 2.0, q_eq = 0.2;
  const double target = q_eq + 1.0 * g * r * std::sin(q_eq) / kp;
  ServoedHinge h = servoed_hinge(r, g, q_eq, spd(kp, kd, target));
  Simulator sim(h.model, servo_settings());
  for (int k = 0; k < 500; ++k) ASSERT_TRUE(sim.step(h.state)) << sim.error();
  double q, qd;
  joint_dof_state(h.model.joints()[0], h.state, 0, &q, &qd);
  EXPECT_NEAR(q, q_eq, 1e-6);
  EXPECT_NEAR(qd, 0.0, 1e-6);
}

TEST(StablePd, SaturatedServoKeepsTheJointsDamping) {
  // The effort limit bounds the servo's torque, not the joint's damping: a servo of at most 0.3 N m
  // lets the pendulum sink to m g r sin(q) = 0.3 N m, and the joint's damping 0.2 N m s still
  // settles it there (clamped together with the servo, the damping was lost and the pendulum
  // swung on undamped).
  const double r = 0.1, g = 9.81, limit = 0.3;
  DofActuator servo = spd(40.0, 2.0, 1.0);
  servo.effort_limit = limit;
  ServoedHinge h = servoed_hinge(r, g, 1.0, servo, 0.2);
  Simulator sim(h.model, servo_settings());
  for (int k = 0; k < 4000; ++k) ASSERT_TRUE(sim.step(h.state)) << sim.error();
  double q, qd;
  joint_dof_state(h.model.joints()[0], h.state, 0, &q, &qd);
  EXPECT_NEAR(q, std::asin(limit / (1.0 * g * r)), 1e-4);
  EXPECT_NEAR(qd, 0.0, 1e-4);
}

TEST(StablePd, WeldedPairStepMatchesTheImplicitUpdateOfItsCompositeInertia) {
  // The servoed subtree of two bodies: a box hanging 0.1 m below a world hinge about x, and a
  // second box welded to it with its CoM off the first's in x, y and z. One step from rest at q0
  // is the closed form with the pair's inertia about the hinge, I = sum I_c,xx + m (dy^2 + dz^2),
  // and its gravity torque: the servo's mass and bias are the subtree's composite terms (its first
  // moment and parallel-axis inertia about the follower's CoM), the along-axis offset included.
  const double g = 9.81, q0 = 0.3, kp = 40.0, kd = 2.0;
  const Vec3 pivot(0, 0, 1), c1(0, 0, 0.9), c2(0.05, 0.07, 0.75);  // CoMs at q = 0
  ModelBuilder mb("welded");
  mb.set_gravity(Vec3(0, 0, -g));
  State s;
  const Body b1 = box_body("a", 1.0, Vec3(0.02, 0.06, 0.08));
  const Body b2 = box_body("b", 0.7, Vec3(0.05, 0.03, 0.04));
  const Quat rot(Eigen::AngleAxisd(q0, Vec3::UnitX()));
  const int i1 = add_body(mb, s, b1, pivot + rot * (c1 - pivot), rot);
  const int i2 = add_body(mb, s, b2, pivot + rot * (c2 - pivot), rot);
  State s0 = s;  // the reference configuration, q = 0
  s0.q[i1] = s0.q[i2] = Quat::Identity();
  s0.r[i1] = c1;
  s0.r[i2] = c2;
  Joint hinge =
      joint_at("hinge", JointType::Revolute, -1, i1, {pivot, axis_frame(Vec3::UnitX())}, s0);
  hinge.actuators[0] = spd(kp, kd, 0.0);
  mb.add_joint(hinge);
  mb.add_joint(joint_at("weld", JointType::Fixed, i1, i2, {c2, Quat::Identity()}, s0));
  Result<Model> m = mb.build();
  ASSERT_TRUE(m) << m.error().message();
  auto about_x = [&](const Body& b, const Vec3& c) {
    const Vec3 d = c - pivot;
    return b.inertia(0, 0) + b.mass * (d.y() * d.y() + d.z() * d.z());
  };
  const double I = about_x(b1, c1) + about_x(b2, c2);
  // Gravity's torque about x: the CoMs' lever arms from the pivot, rotated by q0, cross m g.
  double tau_g = 0.0;
  for (const auto& [b, c] : {std::pair{b1, c1}, std::pair{b2, c2}}) {
    const Vec3 arm = rot * (c - pivot);
    tau_g += arm.cross(Vec3(0, 0, -b.mass * g)).x();
  }
  Simulator sim(*m, servo_settings());
  ASSERT_TRUE(sim.step(s)) << sim.error();
  const double t0 = kp * (0.0 - q0);
  const double qd_ref = (kServoDt * (t0 + tau_g) / I) / (1.0 + kServoDt * (kd + kServoDt * kp) / I);
  double q, qd;
  joint_dof_state(m->joints()[0], s, 0, &q, &qd);
  EXPECT_NEAR(qd, qd_ref, 1e-9 * std::abs(qd_ref));
  EXPECT_NEAR(q, q0 + kServoDt * qd_ref, 1e-9);
}
