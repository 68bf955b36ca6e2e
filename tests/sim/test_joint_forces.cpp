// Joint damping, integrated per DoF (docs/dynamics.md): tau = T0 - c qd (1 - e^-x) / x, x = dt c w.
// A box spinning about a principal axis through its CoM on a revolute joint has the unconstrained
// inverse inertia w = 1 / I_xx, so its velocity decays by exactly e^-x per step.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

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

SimSettings forces_settings(bool implicit) {
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
  Simulator sim(sp.model, forces_settings(true));
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
  Simulator sim(sp.model, forces_settings(false));
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
  Simulator sim(sp.model, forces_settings(true));
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
  Simulator sim(sp.model, forces_settings(true));
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
  Simulator sim_ex(ex.model, forces_settings(false));
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
  Simulator sim(sp.model, forces_settings(true));
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
  Simulator sim(model, forces_settings(true));
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
    SimSettings st = forces_settings(true);
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

// A two-body joint's spring stays out of SAP's theta-method A (docs/dynamics.md: "Binary joints
// keep the treatment above"): its force K (q* - q) acts on both bodies, explicit, at the step's
// start. Two boxes sharing their CoM on a hinge about x, in free space, the follower turned 0.3
// rad against the base and both spinning and drifting together: the relative angle oscillates at
// w = sqrt(K (1/I_A + 1/I_B)) (the reduced inertia about the hinge) and the total linear and
// angular momentum stay constant. A spring dropped never crosses zero; one acting on the follower
// alone (as a unary joint's) oscillates at sqrt(K / I_B), a 24 % lower frequency, and breaks the
// momenta.
TEST(JointForces, ThetaMethodTwoBodySpringOscillatesAtItsReducedInertiaFrequency) {
  ModelBuilder mb("pair");
  mb.set_gravity(Vec3::Zero());
  State s;
  const Body A = box_body("a", 1.0, Vec3(0.02, 0.06, 0.08));
  const Body B = box_body("b", 3.0, Vec3(0.05, 0.03, 0.04));
  Vec6 u = Vec6::Zero();
  u << 0.0, 0.2, 0.1, 1.0, 0.0, 0.0;  // common drift and spin about the hinge
  const int a = add_body(mb, s, A, Vec3::Zero(), Quat::Identity(), u);
  const int b = add_body(mb, s, B, Vec3::Zero(), Quat::Identity(), u);
  const double Ia = A.inertia(0, 0), Ib = B.inertia(0, 0), K = 2.0;
  const double w = std::sqrt(K * (1.0 / Ia + 1.0 / Ib));  // 37.4 rad/s, period 0.168 s
  Joint j =
      joint_at("hinge", JointType::Revolute, a, b, {Vec3::Zero(), axis_frame(Vec3::UnitX())}, s);
  DofActuator& spring = j.actuators[0];
  spring.mode = ActuationMode::Position;
  spring.kp = K;
  spring.target = 0.0;
  mb.add_joint(j);
  const Model model = *mb.build();
  s.q[b] = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));  // displaced from the spring's rest

  auto momenta = [&](const State& st) {
    Vec6 pl = Vec6::Zero();
    for (const int i : {a, b}) {
      const Body& body = model.bodies()[i];
      const Mat3 R = st.q[i].toRotationMatrix();
      const Vec3 p = body.mass * st.u[i].head<3>();
      pl.head<3>() += p;
      pl.tail<3>() += R * body.inertia * R.transpose() * st.u[i].tail<3>() + st.r[i].cross(p);
    }
    return pl;
  };
  const Vec6 P0 = momenta(s);

  SimSettings st;
  st.dt = 1e-3;
  st.solver = "sap";
  st.integrator = Integrator::SapMidpoint;
  st.solver_settings.tol = 1e-12;
  Simulator sim(model, st);
  double q, qd, q_prev;
  joint_dof_state(model.joints()[0], s, 0, &q_prev, &qd);
  ASSERT_NEAR(std::abs(q_prev), 0.3, 1e-12);
  std::vector<double> crossings;  // times at which q changes sign, interpolated
  for (int k = 1; k <= 600; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    joint_dof_state(model.joints()[0], s, 0, &q, &qd);
    if ((q > 0.0) != (q_prev > 0.0)) crossings.push_back(st.dt * (k - q / (q - q_prev)));
    q_prev = q;
    const Vec6 P = momenta(s);
    ASSERT_LT((P - P0).cwiseAbs().maxCoeff(), 1e-12 * P0.cwiseAbs().maxCoeff())
        << "step " << k << ": momenta " << P.transpose() << " from " << P0.transpose();
  }
  ASSERT_GE(crossings.size(), 6u) << "the relative angle does not oscillate";
  const double period = 2.0 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  RecordProperty("period", std::to_string(period));
  EXPECT_NEAR(period, 2.0 * std::numbers::pi / w, 0.01 * 2.0 * std::numbers::pi / w);
}
