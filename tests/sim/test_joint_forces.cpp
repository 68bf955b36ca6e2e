// Joint damping, integrated per DoF (docs/dynamics.md): tau = T0 - c qd (1 - e^-x) / x, x = dt c w.
// A box spinning about a principal axis through its CoM on a revolute joint has the unconstrained
// inverse inertia w = 1 / I_xx, so its velocity decays by exactly e^-x per step.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "moreau/dynamics/builder.hpp"
#include "moreau/model/primitives.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
constexpr double kDt = 1e-3;

struct Spinner {
  Model model;
  State state;
  double w = 0.0;  // inverse inertia about the hinge (x) [1 / (kg m^2)]
};

// One box (inertia diag 0.0025, 0.0017, 0.0008 at mass 1) on a unary hinge about world x through
// its CoM, no gravity; `setup` fills the DoF's damping / actuator.
template <class F>
Spinner spinner(double qd0, F setup) {
  ModelBuilder mb("spinner");
  mb.set_gravity(Vec3::Zero());
  State s;
  const Body body = box_body("box", 1.0, Vec3(0.02, 0.06, 0.08));
  const double Ixx = body.inertia(0, 0);
  Vec6 u = Vec6::Zero();
  u[3] = qd0;
  const int b = add_body(mb, s, body, Vec3(0, 0, 1), Quat::Identity(), u);
  Joint j =
      joint_at("hinge", JointType::Revolute, -1, b, {Vec3(0, 0, 1), axis_frame(Vec3::UnitX())}, s);
  setup(j);
  mb.add_joint(j);
  return {*mb.build(), s, 1.0 / Ixx};
}

SimSettings settings(bool implicit) {
  SimSettings st;
  st.dt = kDt;
  st.solver = "direct";  // joints only: the exact solve
  st.dynamics.implicit_joint_forces = implicit;
  return st;
}

void dof(const Spinner& sp, double* q, double* qd) {
  joint_dof_state(sp.model.joints()[0], sp.state, 0, q, qd);
}
}  // namespace

TEST(JointForces, DampingDecaysExactlyBeyondTheExplicitLimit) {
  // x = dt d w = 2.5, beyond the explicit stability limit of 2.
  const double x = 2.5, d = x / (kDt * spinner(0.0, [](Joint&) {}).w);
  Spinner sp = spinner(2.0, [&](Joint& j) { j.damping[0] = d; });
  Simulator sim(sp.model, settings(true));
  double q, qd;
  for (int k = 1; k <= 20; ++k) {
    ASSERT_TRUE(sim.step(sp.state)) << sim.error();
    dof(sp, &q, &qd);
    EXPECT_NEAR(qd, 2.0 * std::exp(-x * k), 1e-12 * 2.0) << "step " << k;
  }
}

TEST(JointForces, ExplicitDampingAmplifiesBeyondItsLimit) {
  // The switch: explicit damping multiplies qd by (1 - x) = -1.5 per step.
  const double x = 2.5, d = x / (kDt * spinner(0.0, [](Joint&) {}).w);
  Spinner sp = spinner(2.0, [&](Joint& j) { j.damping[0] = d; });
  Simulator sim(sp.model, settings(false));
  double q, qd;
  for (int k = 1; k <= 3; ++k) {
    ASSERT_TRUE(sim.step(sp.state)) << sim.error();
    dof(sp, &q, &qd);
    EXPECT_NEAR(qd, 2.0 * std::pow(1.0 - x, k), 1e-9) << "step " << k;
  }
}

TEST(JointForces, ServoAtRestAppliesItsFullStaticForce) {
  // qd = 0: the damping term vanishes and tau = kp (q* - q), the full static force.
  Spinner probe = spinner(0.0, [](Joint&) {});
  const double kd = 100.0 / (kDt * probe.w), kp = 0.5 / (kDt * kDt * probe.w), target = 0.3;
  Spinner sp = spinner(0.0, [&](Joint& j) {
    DofActuator& a = j.actuators[0];
    a.mode = ActuationMode::Position;
    a.kp = kp;
    a.kd = kd;
    a.target = target;
  });
  Simulator sim(sp.model, settings(true));
  ASSERT_TRUE(sim.step(sp.state)) << sim.error();
  double q, qd;
  dof(sp, &q, &qd);
  EXPECT_NEAR(qd, kDt * sp.w * kp * target, 1e-12 * std::abs(qd));
}

TEST(JointForces, HeavilyDampedServoSettlesWithoutOvershoot) {
  // dt kd w = 1000 (500 times the explicit limit), dt^2 kp w = 0.5: the implicit servo closes the
  // error monotonically, the explicit one grows without bound.
  Spinner probe = spinner(0.0, [](Joint&) {});
  const double kd = 1000.0 / (kDt * probe.w), kp = 0.5 / (kDt * kDt * probe.w), target = 0.3;
  auto servo = [&](Joint& j) {
    DofActuator& a = j.actuators[0];
    a.mode = ActuationMode::Position;
    a.kp = kp;
    a.kd = kd;
    a.target = target;
  };
  Spinner sp = spinner(0.0, servo);
  Simulator sim(sp.model, settings(true));
  double q, qd, err = target;
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(sim.step(sp.state)) << sim.error();
    dof(sp, &q, &qd);
    ASSERT_LE(target - q, err) << "step " << k;
    ASSERT_GE(target - q, -1e-12) << "overshoot at step " << k;
    err = target - q;
  }
  EXPECT_LT(err, 1e-6 * target);

  Spinner ex = spinner(0.0, servo);
  Simulator sim_ex(ex.model, settings(false));
  double peak = 0.0;
  for (int k = 0; k < 20 && sim_ex.step(ex.state); ++k) {
    dof(ex, &q, &qd);
    peak = std::max(peak, std::abs(qd));
  }
  EXPECT_GT(peak, 1e6);
}

TEST(JointForces, EffortLimitClampsTheImplicitForce) {
  const double limit = 0.01;
  Spinner sp = spinner(0.0, [&](Joint& j) {
    DofActuator& a = j.actuators[0];
    a.mode = ActuationMode::Position;
    a.kp = 1e6;
    a.target = 1.0;
    a.effort_limit = limit;
  });
  Simulator sim(sp.model, settings(true));
  ASSERT_TRUE(sim.step(sp.state)) << sim.error();
  double q, qd;
  dof(sp, &q, &qd);
  EXPECT_NEAR(qd, kDt * sp.w * limit, 1e-14);
}

TEST(JointForces, BinaryDampingUsesBothInertiasAndConservesMomentum) {
  // Two boxes sharing their CoM, hinged about x, spinning against each other, in free space: the
  // relative rate decays by e^-x, x = dt d (w_A + w_B), per step and I_A wA + I_B wB is constant.
  ModelBuilder mb("pair");
  mb.set_gravity(Vec3::Zero());
  State s;
  const Body A = box_body("a", 1.0, Vec3(0.02, 0.06, 0.08));
  const Body B = box_body("b", 3.0, Vec3(0.05, 0.03, 0.04));
  Vec6 ua = Vec6::Zero(), ub = Vec6::Zero();
  ua[3] = 1.0;
  ub[3] = -2.0;
  const int a = add_body(mb, s, A, Vec3::Zero(), Quat::Identity(), ua);
  const int b = add_body(mb, s, B, Vec3::Zero(), Quat::Identity(), ub);
  const double wa = 1.0 / A.inertia(0, 0), wb = 1.0 / B.inertia(0, 0);
  const double x = 2.5, d = x / (kDt * (wa + wb));
  Joint j =
      joint_at("hinge", JointType::Revolute, a, b, {Vec3::Zero(), axis_frame(Vec3::UnitX())}, s);
  j.damping[0] = d;
  mb.add_joint(j);
  const Model model = *mb.build();
  Simulator sim(model, settings(true));
  const double L0 = A.inertia(0, 0) * 1.0 + B.inertia(0, 0) * -2.0;
  double rel = -3.0;
  for (int k = 0; k < 10; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    rel *= std::exp(-x);
    EXPECT_NEAR(s.u[b][3] - s.u[a][3], rel, 1e-12) << "step " << k;
    EXPECT_NEAR(A.inertia(0, 0) * s.u[a][3] + B.inertia(0, 0) * s.u[b][3], L0, 1e-15);
  }
}

// SAP's theta-method takes a unary joint's damping into A = M + dt theta D (Castro et al. 2023,
// eq. 15) and keeps the force at u^- in h: per step qd+ = qd (1 - (1 - theta) x) / (1 + theta x),
// x = dt c w. The spinner turns about a principal axis (no gyroscopic torque) and its hinge rows
// see no velocity, so the decay is exactly that: 1/1.5 per step for implicit Euler at x = 0.5,
// 0.6 for the midpoint rule; the explicit force alone would give 0.5.
TEST(JointForces, ThetaMethodDampingDecaysAsItsClosedForm) {
  const double x = 0.5, d = x / (kDt * spinner(0.0, [](Joint&) {}).w);
  for (const auto& [integrator, theta] :
       {std::pair{Integrator::SapImplicitEuler, 1.0}, std::pair{Integrator::SapMidpoint, 0.5}}) {
    Spinner sp = spinner(2.0, [&](Joint& j) { j.damping[0] = d; });
    SimSettings st = settings(true);
    st.solver = "sap";
    st.integrator = integrator;
    st.solver_settings.tol = 1e-12;
    Simulator sim(sp.model, st);
    const double r = (1.0 - (1.0 - theta) * x) / (1.0 + theta * x);
    double q, qd;
    for (int k = 1; k <= 10; ++k) {
      ASSERT_TRUE(sim.step(sp.state)) << sim.error();
      dof(sp, &q, &qd);
      EXPECT_NEAR(qd, 2.0 * std::pow(r, k), 1e-9) << "theta " << theta << " step " << k;
    }
  }
}
