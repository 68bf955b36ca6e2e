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
