// Batches of worlds (sim/batch.hpp): every world steps bit-identically to a lone Simulator fed the
// same controls, whatever the number of threads; a control is the actuator's set point (a torque
// gives the hinge's analytic spin-up, a servo target moves its equilibrium); a bad control stops
// only its own world.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "moreau/model/primitives.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/batch.hpp"

using namespace moreau;

namespace {

bool same_bits(const double* a, const double* b, size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

// The controls of world w: the model's set points moved by 0.05 (w + 1) (targets in rad, torques
// in N m), so that no two worlds follow the same trajectory.
std::vector<double> controls_of(const Model& m, int w) {
  std::vector<double> u;
  for (const ActuatedDof& a : actuated_dofs(m))
    u.push_back(actuator_set_point(m.joints()[a.joint].actuators[a.dof]) + 0.05 * (w + 1));
  return u;
}

// A lone Simulator's state after n steps with world w's controls, packed as Batch packs it.
std::vector<double> lone_run(const Scene& sc, int w, int n) {
  Simulator sim(sc.model, sc.settings);
  const std::vector<double> u = controls_of(sc.model, w);
  sim.set_controls(u.data());
  State s = sc.initial;
  for (int k = 0; k < n; ++k) EXPECT_TRUE(sim.step(s)) << sim.error();
  std::vector<double> out;
  for (int b = 0; b < s.num_bodies(); ++b) {
    for (int k = 0; k < 3; ++k) out.push_back(s.r[b][k]);
    out.insert(out.end(), {s.q[b].w(), s.q[b].x(), s.q[b].y(), s.q[b].z()});
    for (int k = 0; k < 6; ++k) out.push_back(s.u[b][k]);
  }
  return out;
}

std::vector<double> world_of(Batch& b, int w) {
  const int nb = b.num_bodies();
  std::vector<double> out;
  for (int i = 0; i < nb; ++i) {
    const double* r = b.r() + (w * nb + i) * 3;
    const double* q = b.q() + (w * nb + i) * 4;
    const double* u = b.u() + (w * nb + i) * 6;
    out.insert(out.end(), r, r + 3);
    out.insert(out.end(), q, q + 4);
    out.insert(out.end(), u, u + 6);
  }
  return out;
}

Batch make_batch(const Scene& sc, int worlds, int threads) {
  Batch b(sc.model, sc.settings, sc.initial, worlds, threads);
  EXPECT_TRUE(b.ok()) << b.error();
  for (int w = 0; w < worlds; ++w) {
    const std::vector<double> u = controls_of(sc.model, w);
    std::copy(u.begin(), u.end(), b.ctrl() + w * b.num_controls());
  }
  return b;
}

}  // namespace

TEST(Batch, WorldsStepAsALoneSimulatorWhateverTheThreads) {
  // The quadruped: 12 servoed DoFs, feet in contact, the fast path and warm starts at work.
  Result<Scene> sc = make_builtin_scene("quadruped");
  ASSERT_TRUE(sc);
  constexpr int kWorlds = 5, kSteps = 40;
  Batch one = make_batch(*sc, kWorlds, 1), three = make_batch(*sc, kWorlds, 3);
  ASSERT_EQ(one.num_controls(), 12);
  // Two calls of 20 steps: the worlds' warm starts carry over between calls.
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(one.step(kSteps / 2), 0);
    EXPECT_EQ(three.step(kSteps / 2), 0);
  }
  for (int w = 0; w < kWorlds; ++w) {
    const std::vector<double> lone = lone_run(*sc, w, kSteps), a = world_of(one, w),
                              b = world_of(three, w);
    ASSERT_EQ(a.size(), lone.size());
    EXPECT_TRUE(same_bits(a.data(), lone.data(), a.size())) << "world " << w << ", 1 thread";
    EXPECT_TRUE(same_bits(b.data(), lone.data(), b.size())) << "world " << w << ", 3 threads";
    EXPECT_DOUBLE_EQ(one.t()[w], kSteps * sc->settings.dt);
  }
  // The controls differ, so do the worlds.
  EXPECT_FALSE(
      same_bits(world_of(one, 0).data(), world_of(one, 1).data(), world_of(one, 0).size()));
}

namespace {

// A box on a unary hinge about world x through its CoM (inertia I about the axis), no gravity,
// driven by `act`.
Scene hinge_scene(const DofActuator& act, double* inertia) {
  ModelBuilder mb("hinge");
  mb.set_gravity(Vec3::Zero());
  State s;
  const Body body = box_body("box", 2.0, Vec3(0.05, 0.1, 0.2));
  *inertia = body.inertia(0, 0);
  const int b = add_body(mb, s, body, Vec3(0, 0, 1), Quat::Identity(), Vec6::Zero());
  Joint j =
      joint_at("hinge", JointType::Revolute, -1, b, {Vec3(0, 0, 1), axis_frame(Vec3::UnitX())}, s);
  j.actuators[0] = act;
  mb.add_joint(j);
  Scene sc;
  sc.model = *mb.build();
  sc.initial = s;
  sc.settings.dt = 1e-3;
  sc.settings.solver = "direct";
  return sc;
}

}  // namespace

TEST(Batch, AForceControlIsTheTorque) {
  DofActuator motor;
  motor.mode = ActuationMode::Force;
  motor.force = 0.0;
  double I = 0.0;
  const Scene sc = hinge_scene(motor, &I);
  Batch b(sc.model, sc.settings, sc.initial, 2);
  ASSERT_EQ(b.num_controls(), 1);
  EXPECT_EQ(b.ctrl()[0], 0.0);  // the model's set point
  b.ctrl()[0] = 0.3;
  b.ctrl()[1] = -1.2;
  ASSERT_EQ(b.step(100), 0);
  // omega = n dt tau / I about x, exactly up to rounding (no gravity, no gyroscopic torque).
  EXPECT_NEAR(b.u()[3], 100 * 1e-3 * 0.3 / I, 1e-9);
  EXPECT_NEAR(b.u()[6 + 3], 100 * 1e-3 * -1.2 / I, 1e-9);
  EXPECT_NEAR(b.u()[4], 0.0, 1e-12);
}

TEST(Batch, AServoControlIsItsTarget) {
  DofActuator servo;
  servo.mode = ActuationMode::StablePd;
  servo.kp = 5.0;
  servo.kd = 1.0;
  servo.target = 0.0;
  double I = 0.0;
  const Scene sc = hinge_scene(servo, &I);
  Batch b(sc.model, sc.settings, sc.initial, 2);
  b.ctrl()[1] = 0.4;           // world 0 keeps the model's target 0
  ASSERT_EQ(b.step(5000), 0);  // 5 s, about 10 time constants kd / kp
  const auto angle = [&](int w) {
    const double* q = b.q() + 4 * w;
    return 2.0 * std::atan2(q[1], q[0]);  // about x
  };
  EXPECT_NEAR(angle(0), 0.0, 1e-12);
  EXPECT_NEAR(angle(1), 0.4, 1e-6);
}

TEST(Batch, ANonFiniteControlStopsItsWorldOnly) {
  Result<Scene> sc = make_builtin_scene("quadruped");
  ASSERT_TRUE(sc);
  Batch b(sc->model, sc->settings, sc->initial, 3, 2);
  b.ctrl()[b.num_controls() + 4] = std::nan("");
  EXPECT_EQ(b.step(3), 1);
  EXPECT_TRUE(b.world_error(0).empty());
  EXPECT_NE(b.world_error(1).find("control 4"), std::string::npos) << b.world_error(1);
  EXPECT_NE(b.world_error(1).find("not finite"), std::string::npos);
  EXPECT_EQ(b.t()[0], 3 * sc->settings.dt);
  EXPECT_EQ(b.t()[1], 0.0);  // not stepped
  const std::vector<double> three_steps = world_of(b, 0);
  b.reset(1);  // the initial state and the model's controls, as world 0 had
  EXPECT_EQ(b.step(3), 0);
  EXPECT_TRUE(same_bits(world_of(b, 1).data(), three_steps.data(), three_steps.size()));
}

TEST(Batch, RefusesTheIntegratorsWithoutControls) {
  Result<Scene> sc = make_builtin_scene("quadruped");
  ASSERT_TRUE(sc);
  SimSettings st = sc->settings;
  st.integrator = Integrator::Nmdp;
  Batch b(sc->model, st, sc->initial, 2);
  EXPECT_FALSE(b.ok());
  EXPECT_NE(b.error().find("nmdp"), std::string::npos) << b.error();
  EXPECT_EQ(b.num_worlds(), 0);
}
