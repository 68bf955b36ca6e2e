// MJCF models simulated: a double pendulum and a four-bar closed by an equality connect keep their
// joints closed; MuJoCo's sample humanoid runs 5 s without NaN.
#include <gtest/gtest.h>

#include <iomanip>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "io/io_helpers.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau {
namespace {

using io_test::kData;

// Largest joint-row residual (m for translations) over `steps` steps; energy drift through `drift`.
double run_steps(Scene& sc, int steps, double* drift) {
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  const double e0 = total_energy(sc.model, s);
  double worst = joint_residual(sc.model, s).lpNorm<Eigen::Infinity>();
  *drift = 0.0;
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(sim.step(s)) << sim.error();
    if (!s.all_finite()) return INFINITY;
    worst = std::max(worst, joint_residual(sc.model, s).lpNorm<Eigen::Infinity>());
    *drift = std::max(*drift, std::abs(total_energy(sc.model, s) - e0));
  }
  return worst;
}

TEST(MjcfSim, DoublePendulumAndConnectFourBarStayClosed) {
  Result<ImportedModel> r = import_mjcf_file(kData + "pendulums.xml");
  ASSERT_TRUE(r.ok()) << r.error().message();
  Scene& sc = r->scene;
  const Model& m = sc.model;
  ASSERT_EQ(m.num_bodies(), 5);
  ASSERT_EQ(m.num_joints(), 6);  // 5 hinges + the connect
  EXPECT_EQ(m.joints()[5].type, JointType::Spherical);
  EXPECT_EQ(m.joints()[5].name, "close");
  // The keyframe puts the four-bar in a closed configuration (parallelogram).
  EXPECT_LT(joint_residual(m, sc.initial).lpNorm<Eigen::Infinity>(), 1e-12);
  sc.settings.solver = "direct";
  double drift = 0.0;
  const double closure = run_steps(sc, 2000, &drift);  // 2 s at dt = 1 ms
  EXPECT_LT(closure, 1e-6);
  // Passive and undamped: the energy drifts only by the integrator's O(dt) error (measured
  // 4.5e-3 J of 35 J).
  EXPECT_LT(drift, 1e-3 * std::abs(total_energy(m, sc.initial)));
}

TEST(MjcfSim, ConnectFourBarClosedTo1e9OverTenSecondsWithProjection) {
  // The position projection (docs/dynamics.md) closes the loop to round-off; without it the
  // velocity-level rows leave ~1e-6 m after 2 s.
  Result<ImportedModel> r = import_mjcf_file(kData + "pendulums.xml");
  ASSERT_TRUE(r.ok()) << r.error().message();
  Scene& sc = r->scene;
  ASSERT_TRUE(sc.settings.dynamics.position_projection);
  sc.settings.solver = "direct";
  double drift_on = 0.0, drift_off = 0.0;
  const double on = run_steps(sc, 10000, &drift_on);
  sc.settings.dynamics.position_projection = false;
  const double off = run_steps(sc, 10000, &drift_off);
  std::printf(
      "pendulums.xml 10 s: closure %.3e m (drift %.4e J) with projection, %.3e m (drift "
      "%.4e J) without\n",
      on, drift_on, off, drift_off);
  EXPECT_LE(on, 1e-9);
  EXPECT_LE(drift_on, drift_off + 1e-6 * std::abs(total_energy(sc.model, sc.initial)));
}

TEST(MjcfSim, SlowHumanoidRunsFiveSecondsWithoutNaN) {
  const std::string path = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  if (!std::ifstream(path)) GTEST_SKIP() << "libmujoco-samples is not installed (" << path << ")";
  Result<ImportedModel> r = import_mjcf_file(path);
  ASSERT_TRUE(r.ok()) << r.error().message();
  Scene& sc = r->scene;
  EXPECT_EQ(sc.model.num_bodies(), 13);  // head and hands are welded (merged)
  EXPECT_EQ(6 * sc.model.num_bodies() - sc.model.joint_rows(), 27);  // MuJoCo's 27 DoFs
  EXPECT_EQ(sc.settings.dt, 0.005);
  Simulator sim(sc.model, sc.settings);  // the default solver
  State s = sc.initial;
  const double z0 = s.r[0].z();
  const int steps = static_cast<int>(std::lround(5.0 / sc.settings.dt));
  for (int i = 0; i < steps; ++i) {
    ASSERT_TRUE(sim.step(s)) << sim.error() << " at step " << i;
    ASSERT_TRUE(s.all_finite()) << "step " << i;
  }
  // It fell (no controller) and lies on the floor: the torso is lower but above the ground.
  EXPECT_LT(s.r[0].z(), z0);
  EXPECT_GT(s.r[0].z(), 0.0);
}

// An MJCF text's scene stepped `steps` times with its own settings (import and steps must succeed).
struct MjcfRun {
  Scene scene;
  State state;
  // The first joint's first DoF coordinate; NaN without a joint (a failed import).
  double angle() const {
    if (scene.model.num_joints() == 0) return NAN;
    double q, qd;
    joint_dof_state(scene.model.joints()[0], state, 0, &q, &qd);
    return q;
  }
};
MjcfRun run_mjcf(const std::string& xml, int steps, const ImportOptions& opt = {}) {
  MjcfRun out;
  Result<ImportedModel> r = import_mjcf_string(xml, "test.xml", ".", opt);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  if (!r.ok()) return out;
  out.scene = std::move(r->scene);
  out.state = out.scene.initial;
  Simulator sim(out.scene.model, out.scene.settings);
  for (int i = 0; i < steps; ++i) EXPECT_TRUE(sim.step(out.state)) << sim.error();
  return out;
}

// A hinge's armature a adds a to the pendulum's inertia about its axis (docs/model-import.md,
// "Armature"): (I_pivot + a) theta'' = -m g l sin(theta), integrated here by RK4, matches moreau's
// swing to the time step's error, as the joint's row (the default) and folded into the body
// (armature=inertia) alike, and the swing without armature is far from it.
TEST(MjcfSim, ArmatureIsInertiaAboutTheHingeAxis) {
  auto swing = [](double armature, bool rows) {
    const std::string xml =
        "<mujoco><option timestep=\"0.0005\" gravity=\"0 0 -9.81\"/><worldbody><body name=\"p\">"
        "<joint name=\"h\" axis=\"0 1 0\" armature=\"" +
        std::to_string(armature) +
        "\"/><inertial pos=\"0 0 -0.5\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/></body>"
        "</worldbody><keyframe><key qpos=\"0.5\"/></keyframe></mujoco>";
    ImportOptions opt;
    opt.armature_rows = rows;
    return run_mjcf(xml, 2000, opt).angle();  // 1 s
  };
  auto reference = [](double armature) {
    const double I = 0.01 + 1.0 * 0.25 + armature, k = 1.0 * 9.81 * 0.5 / I, h = 1e-4;
    double th = 0.5, w = 0.0;
    for (int i = 0; i < 10000; ++i) {  // RK4 of theta'' = -k sin(theta)
      const double k1t = w, k1w = -k * std::sin(th);
      const double k2t = w + 0.5 * h * k1w, k2w = -k * std::sin(th + 0.5 * h * k1t);
      const double k3t = w + 0.5 * h * k2w, k3w = -k * std::sin(th + 0.5 * h * k2t);
      const double k4t = w + h * k3w, k4w = -k * std::sin(th + h * k3t);
      th += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
      w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
    return th;
  };
  const double with = swing(0.05, false), with_row = swing(0.05, true);
  const double without = swing(0.0, false);
  EXPECT_NEAR(with, reference(0.05), 5e-3);
  EXPECT_NEAR(with_row, reference(0.05), 5e-3);
  EXPECT_NEAR(without, reference(0.0), 5e-3);
  EXPECT_GT(std::abs(reference(0.05) - reference(0.0)), 0.1);
}

// A slide's armature a with damping d, as the joint's row: the momentum balance of body and rotor,
// (m + a)(v+ - v-) = -m g dt - dt d v+, MuJoCo's semi-implicit Euler with implicit damping,
// step by step to rounding (docs/dynamics.md, "Armature and damping rows"); without the rotor the
// body falls measurably faster.
TEST(MjcfSim, SlideArmatureRowIsTheRotorsMomentumBalance) {
  const double m = 2.0, a = 0.5, d = 3.0, g = 9.81, dt = 1e-3;
  const std::string xml =
      "<mujoco><option timestep=\"0.001\" gravity=\"0 0 -9.81\"/><worldbody><body name=\"p\">"
      "<joint name=\"s\" type=\"slide\" axis=\"0 0 1\" armature=\"0.5\" damping=\"3\"/>"
      "<inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"0.1 0.1 0.1\"/></body></worldbody>"
      "</mujoco>";
  const int steps = 500;
  const MjcfRun run = run_mjcf(xml, steps);
  ASSERT_EQ(run.state.num_bodies(), 1);
  double z = 0.0, v = 0.0, z_free = 0.0, v_free = 0.0;
  for (int i = 0; i < steps; ++i) {
    v = ((m + a) * v - m * g * dt) / (m + a + dt * d);
    z += dt * v;
    v_free = (m * v_free - m * g * dt) / (m + dt * d);
    z_free += dt * v_free;
  }
  EXPECT_NEAR(run.state.r[0].z(), z, 1e-10);
  EXPECT_NEAR(run.state.u[0](2), v, 1e-10);
  EXPECT_GT(std::abs(z - z_free), 1e-2);
}

// The armature rows survive a Problem dump (rotor_rows), and SAP, whose primal model has no such
// row, declines the Problem before and after it; with the armature folded it solves it.
TEST(MjcfSim, ArmatureRowsSurviveADumpAndSapDeclinesThem) {
  const std::string xml =
      "<mujoco><option timestep=\"0.001\" gravity=\"0 0 -9.81\"/><worldbody><body name=\"p\">"
      "<joint name=\"h\" axis=\"0 1 0\" armature=\"0.05\" damping=\"0.1\"/>"
      "<inertial pos=\"0 0 -0.5\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/></body>"
      "</worldbody><keyframe><key qpos=\"0.5\"/></keyframe></mujoco>";
  auto sap_status = [](const Problem& p) {
    WarmStart w;
    SolverWorkspace ws;
    Solution sol;
    EXPECT_TRUE(solve("sap", p, SolverSettings{}, w, ws, sol));
    return sol.status;
  };
  for (const bool rows : {true, false}) {
    ImportOptions opt;
    opt.armature_rows = rows;
    MjcfRun run = run_mjcf(xml, 1, opt);
    Simulator sim(run.scene.model, run.scene.settings);
    ASSERT_TRUE(sim.step(run.state)) << sim.error();
    const Problem& p = sim.problem();
    int rotor = 0;
    for (const ConstraintBlock& b : p.blocks) rotor += b.rotor_rows;
    EXPECT_EQ(rotor, rows ? 1 : 0);
    Result<Problem> back = problem_from_bytes(problem_to_bytes(p), "dump");
    ASSERT_TRUE(back.ok()) << back.error().message();
    int rotor_back = 0;
    for (const ConstraintBlock& b : back->blocks) rotor_back += b.rotor_rows;
    EXPECT_EQ(rotor_back, rotor);
    EXPECT_EQ(sap_status(p) == SolveStatus::Failed, rows);
    EXPECT_EQ(sap_status(*back) == SolveStatus::Failed, rows);
  }
}

// --set armature=inertia|rows chooses how MJCF armature is imported; anything else is an error
// that names the key and the values it takes.
TEST(MjcfSim, ArmatureModeIsAnImportParameter) {
  Result<ImportOptions> rows = import_options_from_params({{"armature", "rows"}}, "r.xml");
  ASSERT_TRUE(rows) << rows.error().message();
  EXPECT_TRUE(rows->armature_rows);
  Result<ImportOptions> folded = import_options_from_params({{"armature", "inertia"}}, "r.xml");
  ASSERT_TRUE(folded) << folded.error().message();
  EXPECT_FALSE(folded->armature_rows);
  Result<ImportOptions> bad = import_options_from_params({{"armature", "exact"}}, "r.xml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("--set armature"), std::string::npos);
  EXPECT_NE(bad.error().message().find("inertia or rows"), std::string::npos);
}

// servo_kp (docs/model-import.md, "Standing"): an actuated hinge holds its initial angle against
// gravity with the static error m g l sin(theta) / kp, and not at all when the motor's ctrlrange
// cannot give that torque.
TEST(MjcfSim, ServoHoldsTheInitialAngleWithinTheMotorsTorque) {
  auto hold = [](double ctrl_max) {
    const std::string xml =
        "<mujoco><option timestep=\"0.001\" gravity=\"0 0 -9.81\"/><worldbody><body name=\"p\">"
        "<joint name=\"h\" axis=\"0 1 0\" damping=\"5\"/><inertial pos=\"0 0 -0.5\" mass=\"1\" "
        "diaginertia=\"0.01 0.01 0.01\"/></body></worldbody><actuator><motor joint=\"h\" "
        "ctrlrange=\"-" +
        std::to_string(ctrl_max) + " " + std::to_string(ctrl_max) +
        "\"/></actuator><keyframe><key qpos=\"0.5\"/></keyframe></mujoco>";
    ImportOptions opt;
    opt.servo_kp = 100.0;
    opt.servo_kd = 5.0;
    return run_mjcf(xml, 5000, opt).angle();  // 5 s
  };
  const double q = hold(10.0);  // room for the 2.35 N m gravity asks
  // Gravity pulls towards 0; the servo gives kp (0.5 - q) = m g l sin(q).
  const double q_static = 0.5 - 9.81 * 0.5 * std::sin(q) / 100.0;
  EXPECT_NEAR(q, q_static, 1e-4);
  EXPECT_NEAR(q, 0.5 - 9.81 * 0.5 * std::sin(0.5) / 100.0, 2e-3);
  // 1 N m at most: the pendulum sinks to where m g l sin(q) = 1 N m, slowed by the joint's
  // damping alone (the servo's saturated; 2e-3 above it after 5 s, still settling).
  EXPECT_NEAR(hold(1.0), std::asin(1.0 / (9.81 * 0.5)), 3e-3);
}

// contype/conaffinity as MuJoCo decides them: two geoms collide when either's contype meets the
// other's conaffinity. A ball (contype 2, conaffinity 0) on a plane (contype 1, conaffinity 2)
// rests on it (2 & 2); with the plane's conaffinity 1 it falls through (2 & 1 and 1 & 0 are 0).
TEST(MjcfSim, ContypeConaffinityEitherWayCollides) {
  auto fall = [](int plane_conaffinity) {
    const std::string xml =
        "<mujoco><worldbody><geom type=\"plane\" size=\"1 1 0.1\" contype=\"1\" conaffinity=\"" +
        std::to_string(plane_conaffinity) +
        "\"/><body pos=\"0 0 0.1\"><freejoint/><geom type=\"sphere\" size=\"0.1\" contype=\"2\" "
        "conaffinity=\"0\"/></body></worldbody></mujoco>";
    const MjcfRun run = run_mjcf(xml, 250);  // 0.5 s
    return run.state.r.empty() ? NAN : run.state.r[0].z();
  };
  EXPECT_NEAR(fall(2), 0.1, 1e-3);
  EXPECT_LT(fall(1), -0.5);  // 0.5 s of free fall: 1.2 m
}

// A joint's stiffness is implicit (stable PD with kd 0): at dt^2 k / I = 100, 25 times past the
// explicit spring's stability bound, the hinge follows the backward-Euler update
//   w+ = (w + dt k (q_ref - q) / I) / (1 + dt^2 k / I),  q+ = q + dt w+
// step by step, with no cap and no warning, and settles at springref.
TEST(MjcfSim, JointStiffnessIsImplicitWithoutACap) {
  const double I = 0.01, dt = 0.002, k = 100.0 * I / (dt * dt), ref = 0.1;
  const std::string xml =
      "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.002\" gravity=\"0 0 0\"/>"
      "<worldbody><body name=\"p\">"
      "<joint name=\"h\" axis=\"0 1 0\" stiffness=\"" +
      std::to_string(k) +
      "\" springref=\"0.1\"/>"
      "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/></body>"
      "</worldbody></mujoco>";
  Result<ImportedModel> r = import_mjcf_string(xml, "spring.xml", ".");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();
  double q = 0.0;
  for (const int steps : {1, 2, 3, 50}) {
    const MjcfRun run = run_mjcf(xml, steps);
    double qs = 0.0, ws = 0.0;
    for (int i = 0; i < steps; ++i) {
      ws = (ws + dt * k * (ref - qs) / I) / (1.0 + dt * dt * k / I);
      qs += dt * ws;
    }
    q = qs;
    EXPECT_NEAR(run.angle(), q, 1e-9) << steps;
  }
  EXPECT_NEAR(q, ref, 1e-6);  // settled: 50 steps of a contraction by 1 / 101 per step
}

// A joint that starts outside its range is named in a warning and comes back by at most
// stabilization.max_limit_correction per step (its row's bias and the position projection, 1e-3
// rad each), not in one step: without gravity 30 degrees take more than 260 steps of 2 ms, the
// kinetic energy stays that of 1 rad/s, and after 2 s the joint is inside.
TEST(MjcfSim, JointOutsideItsRangeComesBackBoundedWithAWarning) {
  const std::string xml =
      "<mujoco><option timestep=\"0.002\" gravity=\"0 0 0\"/><worldbody><body name=\"a\">"
      "<joint name=\"h\" axis=\"0 1 0\" range=\"30 140\"/>"
      "<geom type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.03\" mass=\"1\"/>"
      "</body></worldbody></mujoco>";
  Result<ImportedModel> r = import_mjcf_string(xml, "outside.xml", ".");
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("joint 'h' DoF 0 starts at 0"), std::string::npos)
      << r->warnings[0];
  const double lower = 30.0 * M_PI / 180.0;
  double prev = 0.0;
  for (const int steps : {1, 2, 100, 1000}) {
    const MjcfRun run = run_mjcf(xml, steps);
    const double q = run.angle();
    if (steps <= 2)
      EXPECT_LE(q - prev, 2e-3 + 1e-9)
          << std::setprecision(17) << q - prev;  // one step's correction
    prev = q;
    if (steps == 100) EXPECT_LT(q, lower - 0.3);
    if (steps == 1000) EXPECT_GE(q, lower - 1e-9);
    double kinetic = 0.0;
    for (int b = 0; b < run.state.num_bodies(); ++b) {
      const Body& body = run.scene.model.bodies()[b];
      const Vec6& u = run.state.u[b];
      kinetic += 0.5 * body.mass * u.head<3>().squaredNorm() +
                 0.5 * u.tail<3>().dot(run.state.q[b] *
                                       (body.inertia * (run.state.q[b].inverse() * u.tail<3>())));
    }
    const double I = run.scene.model.bodies()[0].inertia(1, 1) + 1.0 * 0.15 * 0.15;
    EXPECT_LE(kinetic, 0.5 * I * 1.0 * 1.0 + 1e-9) << steps;  // 1 rad/s: 2e-3 rad per 2 ms
  }
}

// A loop that starts open (the four-bar's keyframe turned by 0.15 rad at one hinge: the connect
// 5.85 cm apart) is named in a warning and closes by at most stabilization.max_joint_correction
// per step, in the Baumgarte term and in the position projection (1e-3 m each), not in one step;
// it is closed to round-off after 0.1 s.
TEST(MjcfSim, LoopThatStartsOpenClosesBoundedWithAWarning) {
  std::ifstream in(kData + "pendulums.xml");
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string closed = "<key qpos=\"1.2 -0.5 0.6 -0.6 0.6\"/>";
  ASSERT_NE(xml.find(closed), std::string::npos);
  xml.replace(xml.find(closed), closed.size(), "<key qpos=\"1.2 -0.5 0.6 -0.6 0.75\"/>");
  Result<ImportedModel> r = import_mjcf_string(xml, "open.xml", kData);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("joint 'close' starts open"), std::string::npos) << r->warnings[0];
  Scene& sc = r->scene;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  double open = joint_residual(sc.model, s).lpNorm<Eigen::Infinity>();
  EXPECT_GT(open, 0.05);
  for (int k = 1; k <= 100; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    const double now = joint_residual(sc.model, s).lpNorm<Eigen::Infinity>();
    // each row by at most 2e-3 per step (the bias's and the projection's), up to the step's
    // nonlinearity (measured: 2.002e-3 in the first step); unbounded, 5.85 cm in one step
    if (k <= 10) EXPECT_GE(now, open - 2.1e-3) << k;
    open = now;
  }
  EXPECT_LT(open, 1e-9);
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// MuJoCo's parent-child contact filter exempts the world body: a body jointed to the world (here
// on a slide, as a floating base of slides and a ball is) lands on the floor instead of passing
// through it, as in MuJoCo (its test FilterParentDoesntAffectWorldBody). Between two moving
// bodies the filter stays.
TEST(MjcfSim, ABodyJointedToTheWorldCollidesWithTheFloor) {
  const std::string xml =
      "<mujoco><option timestep=\"0.002\"/><worldbody><geom type=\"plane\" size=\"1 1 0.1\"/>"
      "<body name=\"a\" pos=\"0 0 0.3\"><joint name=\"z\" type=\"slide\" axis=\"0 0 1\"/>"
      "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\"/>"
      "<body name=\"b\" pos=\"0 0 0\"><joint name=\"h\" axis=\"0 1 0\"/>"
      "<geom type=\"sphere\" size=\"0.05\" mass=\"0.1\"/></body>"
      "</body></worldbody></mujoco>";
  Result<ImportedModel> r = import_mjcf_string(xml, "slide.xml", ".");
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Scene& sc = r->scene;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(sim.step(s)) << sim.error();
  // At rest on the plane: the box's centre one half-size up (the sphere inside the box, jointed
  // to it, makes no contact with it).
  EXPECT_NEAR(s.r[0].z(), 0.1, 2e-3);
  for (const Contact& c : sim.contacts()) EXPECT_EQ(c.body[0] < 0 || c.body[1] < 0, true);
}

}  // namespace
}  // namespace moreau
