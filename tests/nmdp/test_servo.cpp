// The servo forms of the nmdp integrators (nmdp.servo): on a spinner (a box hinged through its
// CoM, no gravity: H constant, C = 0) forward-Euler mdp and backward-Euler nmdp are the same
// linear update, so each form has a closed form per step (I the inertia about the hinge):
//   implicit  (I + dt kd + dt^2 kp) qd+ = I qd + dt kp (q* - q)
//   tan       (I + dt kd) qd+ = I qd + dt kp (q* - q - dt qd)          (Tan, Liu & Turk 2011)
// and q+ = q + dt qd+. With dt^2 kp / I = 50 and dt kd / I = 20 the first converges and the
// second diverges (its iteration matrix has an eigenvalue near -4.3).
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/dynamics/builder.hpp"
#include "moreau/model/primitives.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

constexpr double kDt = 1e-3;

struct Spinner {
  Model model;
  State state;
  double inertia = 0.0;
};

Spinner spinner(const DofActuator& servo) {
  ModelBuilder mb("spinner");
  mb.set_gravity(Vec3::Zero());
  State s;
  const Body body = box_body("box", 1.0, Vec3(0.02, 0.06, 0.08));
  const int b = add_body(mb, s, body, Vec3(0, 0, 1), Quat::Identity(), Vec6::Zero());
  Joint j = joint_at("hinge", JointType::Revolute, -1, b, {Vec3(0, 0, 1), Quat::Identity()}, s);
  j.actuators[0] = servo;
  mb.add_joint(j);
  return {*mb.build(), s, body.inertia(0, 0)};
}

}  // namespace

TEST(NmdpServo, BothFormsFollowTheirClosedFormsInMdpAndNmdp) {
  const double I = spinner({}).inertia;
  const double kp = 50.0 * I / (kDt * kDt), kd = 20.0 * I / kDt;
  const double target = 1e-4;  // small: the diverging Tan form stays below pi for 6 steps
  DofActuator a;
  a.mode = ActuationMode::StablePd;
  a.kp = kp;
  a.kd = kd;
  a.target = target;
  for (Integrator integrator : {Integrator::Mdp, Integrator::Nmdp})
    for (nmdp::ServoForm form : {nmdp::ServoForm::Implicit, nmdp::ServoForm::Tan}) {
      SCOPED_TRACE(std::string(integrator_name(integrator)) + " " + nmdp::servo_form_name(form));
      Spinner sp = spinner(a);
      SimSettings st;
      st.dt = kDt;
      st.integrator = integrator;
      st.nmdp.servo = form;
      Simulator sim(sp.model, st);
      double q_ref = 0.0, qd_ref = 0.0;
      for (int k = 1; k <= 6; ++k) {
        ASSERT_TRUE(sim.step(sp.state)) << sim.error();
        if (form == nmdp::ServoForm::Implicit)
          qd_ref = (I * qd_ref + kDt * kp * (target - q_ref)) / (I + kDt * kd + kDt * kDt * kp);
        else
          qd_ref = (I * qd_ref + kDt * kp * (target - q_ref - kDt * qd_ref)) / (I + kDt * kd);
        q_ref += kDt * qd_ref;
        double q, qd;
        joint_dof_state(sp.model.joints()[0], sp.state, 0, &q, &qd);
        ASSERT_NEAR(qd, qd_ref, 1e-8 * (1.0 + std::abs(qd_ref))) << "step " << k;
        ASSERT_NEAR(q, q_ref, 1e-8 * (1.0 + std::abs(q_ref))) << "step " << k;
      }
      // Implicit: within 10 % of the target, no overshoot; Tan: the error grows 4.3x per step.
      if (form == nmdp::ServoForm::Implicit) {
        EXPECT_NEAR(q_ref, target, 0.1 * target);
        EXPECT_LE(q_ref, target + 1e-12);
      } else {
        EXPECT_GT(std::abs(q_ref - target), 1e3 * target);
        EXPECT_LT(std::abs(q_ref), 3.0);  // no angle wrap in the comparison
      }
    }
}

// Tan's form on one DoF: the update of (q, qd) has trace T = (2 I + dt kd - 2 dt^2 kp) / a and
// determinant D = (I - dt^2 kp) / a, a = I + dt kd. Jury's conditions |D| < 1, 1 - T + D > 0,
// 1 + T + D > 0 reduce to dt^2 kp < 2 I + dt kd (|D| < 1) and 3 dt^2 kp < 4 I + 2 dt kd (the
// third), which is the tighter: at 3 % below it the error decays, at 3 % above it grows, though
// both sides meet the determinant condition (docs/integrators.md, "The step").
TEST(NmdpServo, TanFormIsStableExactlyBelowTheJuryBound) {
  const double I = spinner({}).inertia;
  const double target = 1e-9;  // the unstable side grows ~1e7x in 200 steps: no angle wrap
  for (const double kd_ratio : {0.0, 1.0}) {  // dt kd / I
    const double kd = kd_ratio * I / kDt;
    const double kp_jury = (4.0 * I + 2.0 * kDt * kd) / (3.0 * kDt * kDt);
    for (const double side : {0.97, 1.03}) {
      SCOPED_TRACE("dt kd / I = " + std::to_string(kd_ratio) + ", kp = " + std::to_string(side) +
                   " x Jury's bound");
      const double kp = side * kp_jury;
      ASSERT_LT(kDt * kDt * kp, 2.0 * I + kDt * kd);  // the determinant condition holds
      DofActuator a;
      a.mode = ActuationMode::StablePd;
      a.kp = kp;
      a.kd = kd;
      a.target = target;
      Spinner sp = spinner(a);
      SimSettings st;
      st.dt = kDt;
      st.integrator = Integrator::Mdp;
      st.nmdp.servo = nmdp::ServoForm::Tan;
      Simulator sim(sp.model, st);
      for (int k = 0; k < 200; ++k) ASSERT_TRUE(sim.step(sp.state)) << sim.error();
      double q, qd;
      joint_dof_state(sp.model.joints()[0], sp.state, 0, &q, &qd);
      if (side < 1.0)
        EXPECT_LT(std::abs(q - target), 1e-2 * target);  // |lambda| <= 0.94: 4e-6 after 200
      else
        EXPECT_GT(std::abs(q - target), 1e3 * target);  // |lambda| >= 1.06: 1e5 after 200
    }
  }
}
