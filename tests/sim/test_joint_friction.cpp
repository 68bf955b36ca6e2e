// Joint dry friction (Joint::friction, a box row |lambda| <= F dt; docs/model-format.md, "Joint
// friction"). On a body hinged to the world the step is the 1-DoF law
//   w+ = w + dt tau / I - clamp(w + dt tau / I, -dt F / I, dt F / I)
// (tau the other torques about the hinge, I the inertia about it): a spinning wheel loses F dt / I
// per step and stops exactly; a torque below F does not start it, one above accelerates it by
// (tau - F) / I.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/io/problem_io.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/model/primitives.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
constexpr double kFrictionDt = 1e-3;

struct Hinged {
  Model model;
  State state;
  double inertia = 0.0;  // about the hinge [kg m^2]
};

// The box's inertia about the hinge, its CoM `offset` from it.
double inertia_about_hinge(double offset) {
  const Body body = box_body("box", 1.0, Vec3(0.02, 0.06, 0.08));
  return body.inertia(0, 0) + body.mass * offset * offset;
}

// A box (mass 1, half extents 0.02 x 0.06 x 0.08) on a unary hinge about world x, its CoM
// `offset` from the axis along +y (horizontal: gravity -g z gives the torque -g offset about x),
// spinning at w0, dry friction F.
Hinged hinged(double offset, double g, double w0, double F) {
  ModelBuilder mb("rubbed");
  mb.set_gravity(Vec3(0, 0, -g));
  State s;
  const Body body = box_body("box", 1.0, Vec3(0.02, 0.06, 0.08));
  const double I = inertia_about_hinge(offset);
  const Vec3 pivot(0, 0, 1), com = pivot + Vec3(0, offset, 0);
  Vec6 twist = Vec6::Zero();
  twist.head<3>() = Vec3::UnitX().cross(com - pivot) * w0;  // v at the CoM = w x r
  twist.tail<3>() = Vec3::UnitX() * w0;
  const int b = add_body(mb, s, body, com, Quat::Identity(), twist);
  Joint j = joint_at("hinge", JointType::Revolute, -1, b, {pivot, axis_frame(Vec3::UnitX())}, s);
  j.friction[0] = F;
  mb.add_joint(j);
  return {*mb.build(), s, I};
}

SimSettings friction_settings(const std::string& solver) {
  SimSettings st;
  st.dt = kFrictionDt;
  st.solver = solver;
  st.solver_settings.tol = 1e-10;
  st.solver_settings.max_iters = 2000;
  return st;
}

double spin(const State& s, int body) {
  return s.u[body][3];  // angular velocity about x
}
}  // namespace

// A wheel at 2 rad/s with F / I = 100 rad/s^2 loses 0.1 rad/s per step: 20 steps to stop, then
// it stays; every solver that takes box rows agrees, and the fast path as well.
TEST(JointFriction, SpinningWheelStopsAtTheRateFOverI) {
  for (const char* solver : {"admm-ncp-sa", "nsn", "pgs-ncp", "nbgs", "prox", "prox-fp", "apgd"}) {
    for (const bool fast : {false, true}) {
      const Hinged h = hinged(0.0, 0.0, 2.0, 100.0 * inertia_about_hinge(0.0));
      SimSettings st = friction_settings(solver);
      st.fast_path = fast;
      Simulator sim(h.model, st);
      State s = h.state;
      for (int k = 1; k <= 30; ++k) {
        ASSERT_TRUE(sim.step(s)) << solver << ": " << sim.error();
        const double expect = std::max(0.0, 2.0 - 0.1 * k);
        EXPECT_NEAR(spin(s, 0), expect, 1e-8) << solver << (fast ? " fast" : "") << " step " << k;
      }
    }
  }
}

// Gravity's torque m g d about a horizontal hinge, d = 0.1 m: F = 1.5 m g d holds the box at rest
// (the static case: |lambda| < F dt inside the box), F = 0.5 m g d lets it go with (m g d - F) / I.
TEST(JointFriction, HoldsBelowTheBoundAndSlipsAboveIt) {
  const double g = 9.81, d = 0.1, tau = 1.0 * g * d;
  for (const double ratio : {1.5, 0.5}) {
    Hinged h = hinged(d, g, 0.0, ratio * tau);
    Simulator sim(h.model, friction_settings("admm-ncp-sa"));
    State s = h.state;
    ASSERT_TRUE(sim.step(s)) << sim.error();
    // tau about +x: r x F = (0, d, 0) x (0, 0, -m g) = (-m g d, 0, 0)
    const double expect = ratio > 1.0 ? 0.0 : -(tau - ratio * tau) / h.inertia * kFrictionDt;
    EXPECT_NEAR(spin(s, 0), expect, 1e-9) << ratio;
    const Solution& sol = sim.solution();
    EXPECT_LE(sol.residual, 1e-10);
  }
}

// The natural map of one box row: D = 1, v_f = -5, bound 2. Inside the box lambda = 5 would stop
// the DoF; the bound takes 2 and leaves v = -3 (lambda at +bound, v <= 0): natmap 0. Lambda = 1
// is neither.
TEST(JointFriction, NaturalMapOfTheBoxRow) {
  Problem p;
  p.nl = 1;
  ConstraintBlock b;
  b.kind = RowKind::Limit;
  b.cone = ConeKind::Box;
  b.size = 1;
  b.bound = 2.0;
  p.blocks.push_back(b);
  VecX lam(1), v(1);
  lam << 2.0;
  v << -3.0;
  EXPECT_EQ(ncp_residuals(p, lam, v, true).natmap, 0.0);
  EXPECT_EQ(ncp_residuals(p, lam, v, true).compl_, 0.0);
  lam << 1.0;
  v << -4.0;
  EXPECT_NEAR(ncp_residuals(p, lam, v, true).natmap, 1.0, 1e-15);  // 1 - clamp(5, -2, 2)
  lam << -2.0;  // at -bound with v < 0: the impulse pushes the way the DoF already goes
  v << -1.0;
  EXPECT_NEAR(ncp_residuals(p, lam, v, true).natmap, 1.0, 1e-15);  // -2 - clamp(-1, -2, 2)
  EXPECT_GT(ncp_residuals(p, lam, v, true).compl_, 0.0);
}

// Lemke's LCP, Todorov's force map and SAP have no interval row: they decline, saying why.
TEST(JointFriction, SolversWithoutBoxRowsDecline) {
  const Hinged h = hinged(0.0, 0.0, 2.0, 1.0);
  for (const char* solver : {"lemke", "ngn", "sap"}) {
    SimSettings st = friction_settings(solver);
    if (std::string(solver) == "sap") st.integrator = Integrator::SapSymplecticEuler;
    st.fast_path = false;  // the step's solver on the full Problem
    Simulator sim(h.model, st);
    State s = h.state;
    sim.step(s);
    EXPECT_EQ(sim.solution().status, SolveStatus::Failed) << solver;
    EXPECT_NE(sim.solution().message.find("dry-friction"), std::string::npos)
        << solver << ": " << sim.solution().message;
  }
}

// MJCF frictionloss and URDF <dynamics friction> become Joint::friction per DoF (a ball's on each
// of its three), and the scene JSON carries it through a round trip.
TEST(JointFriction, ImportedFromMjcfAndUrdfAndKeptByTheSceneJson) {
  const std::string mjcf = R"(<mujoco><worldbody>
    <body name="a" pos="0 0 1"><joint name="h" type="hinge" axis="1 0 0" frictionloss="0.3"/>
      <geom type="box" size="0.1 0.1 0.1" mass="1"/>
      <body name="b" pos="0 0 -0.3"><joint name="s" type="ball" frictionloss="0.2"/>
        <geom type="sphere" size="0.05" mass="0.5"/></body></body>
  </worldbody></mujoco>)";
  Result<ImportedModel> r = import_mjcf_string(mjcf, "rubbed.xml", ".");
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  ASSERT_EQ(m.num_joints(), 2);
  EXPECT_DOUBLE_EQ(m.joints()[0].friction[0], 0.3);
  for (int k = 0; k < 3; ++k) EXPECT_DOUBLE_EQ(m.joints()[1].friction[k], 0.2) << k;
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();  // nothing dropped
  Result<Scene> back = parse_scene_json(scene_to_json(r->scene), "round trip");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_DOUBLE_EQ(back->model.joints()[0].friction[0], 0.3);
  EXPECT_DOUBLE_EQ(back->model.joints()[1].friction[2], 0.2);

  const std::string urdf = R"(<robot name="r"><link name="base"/>
    <link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"
      ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="10" velocity="1"/><dynamics damping="0.1" friction="0.4"/>
    </joint></robot>)";
  Result<ImportedModel> u = import_urdf_string(urdf, "rubbed.urdf");
  ASSERT_TRUE(u.ok()) << u.error().message();
  EXPECT_DOUBLE_EQ(u->scene.model.joints()[0].friction[0], 0.4);
  const std::string bad = R"(<mujoco><worldbody><body><joint type="hinge" frictionloss="-1"/>
    <geom type="sphere" size="0.1"/></body></worldbody></mujoco>)";
  Result<ImportedModel> e = import_mjcf_string(bad, "bad.xml", ".");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message().find("frictionloss"), std::string::npos) << e.error().message();
}

// A Problem with a box row survives the .mprob layout (the dumps `moreau solve` reads): same
// cone, same bound, same answer.
TEST(JointFriction, TheProblemDumpKeepsTheInterval) {
  const Hinged h = hinged(0.0, 0.0, 2.0, 0.5);
  Simulator sim(h.model, friction_settings("nsn"));
  State s = h.state;
  ASSERT_TRUE(sim.step(s)) << sim.error();
  const Problem& p = sim.problem();
  Result<Problem> back = problem_from_bytes(problem_to_bytes(p), "box");
  ASSERT_TRUE(back.ok()) << back.error().message();
  ASSERT_EQ(back->blocks.size(), p.blocks.size());
  const ConstraintBlock& b = back->blocks.back();
  EXPECT_EQ(b.cone, ConeKind::Box);
  EXPECT_EQ(b.bound, 0.5 * kFrictionDt);
  SolverWorkspace ws;
  Solution a, c;
  SolverSettings st = friction_settings("nsn").solver_settings;
  ASSERT_TRUE(solve("nsn", p, st, WarmStart{}, ws, a));
  ASSERT_TRUE(solve("nsn", *back, st, WarmStart{}, ws, c));
  EXPECT_EQ(a.lambda, c.lambda);
  EXPECT_EQ(std::abs(a.lambda[b.offset]), 0.5 * kFrictionDt);  // sliding: the bound
}
