// Wedged contacts (JointSchur::unwedge; docs/performance.md, "Wedged contacts"): a rod hinged to
// the world about y, hanging straight down into the floor. The contact at its tip moves along x
// only, whatever the impulses: its normal and y velocities are fixed, so the floor's Baumgarte
// bias, which asks the tip to rise out of the 5 mm penetration, asks for what no impulse gives, and
// the NCP has no solution.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/sim/joint_schur.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {

// The scene of an MJCF string, named `name` in messages.
Scene scene_of(const std::string& mjcf, const char* name) {
  Result<ImportedModel> r = import_mjcf_string(mjcf, name, ".");
  if (!r.ok()) {
    ADD_FAILURE() << r.error().message();
    return Scene{};
  }
  return r->scene;
}

// The rod (capsule, radius 2 cm) from its hinge at height 0.5 m, `tilt` rad about y from straight
// down, its tip 5 mm into the floor.
Scene hinged_rod(double tilt) {
  const double len = (0.5 + 0.005 - 0.02) / std::cos(tilt);
  const std::string mjcf =
      "<mujoco><worldbody><geom name=\"floor\" type=\"plane\" size=\"0 0 1\"/>"
      "<body name=\"rod\" pos=\"0 0 0.5\"><joint name=\"hinge\" type=\"hinge\" axis=\"0 1 0\"/>"
      "<geom type=\"capsule\" size=\"0.02\" mass=\"1\" fromto=\"0 0 0 " +
      std::to_string(len * std::sin(tilt)) + " 0 " + std::to_string(-len * std::cos(tilt)) +
      "\"/></body></worldbody></mujoco>";
  return scene_of(mjcf, "rod.xml");
}

// The first step's Problem as built (the fast path off: no correction applied to it).
Problem first_problem(const Scene& sc) {
  SimSettings st = sc.settings;
  st.fast_path = false;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  if (!sim.step(s)) ADD_FAILURE() << sim.error();
  return sim.problem();
}

// One step's solution by nsn on the full problem: no fast path, so no correction.
Solution full_nsn_step(const Scene& sc) {
  SimSettings full = sc.settings;
  full.fast_path = false;
  full.solver = "nsn";
  Simulator raw(sc.model, full);
  State s = sc.initial;
  if (!raw.step(s)) ADD_FAILURE() << raw.error();
  return raw.solution();
}

}  // namespace

TEST(Wedge, TheJointsBlockTheTipsNormalSoItsBiasIsRemoved) {
  const Scene sc = hinged_rod(0.0);
  Problem p = first_problem(sc);  // its reduction is checked below
  ASSERT_EQ(p.count(RowKind::Contact), 1);
  const ConstraintBlock& c = p.blocks.back();
  ASSERT_LT(p.f[c.offset + 2], -0.004);  // the gap: 5 mm deep
  const Vec3 before = p.v_f.segment<3>(c.offset);

  JointSchur schur;
  ASSERT_TRUE(schur.reduce(p));
  const Problem& r = schur.reduced();
  ASSERT_EQ(r.nl, 3);
  const Vec3 vs_before = r.v_f.head<3>();
  // D_S = d m m^T: the tip moves along m = the frame's x, and n lies in its null space.
  Eigen::SelfAdjointEigenSolver<Mat3> eig(r.D_dense.block<3, 3>(0, 0));
  EXPECT_LT(eig.eigenvalues()(1), 1e-12 * eig.eigenvalues()(2));
  const Vec3 m = eig.eigenvectors().col(2);
  EXPECT_LT(std::abs(m.z()), 1e-12);
  ASSERT_LT(vs_before.z(), -1e-3);  // the bias asks the tip to rise (v = D_S lambda + v_S)

  EXPECT_EQ(schur.unwedge(p), 1);
  const Vec3 vs_after = r.v_f.head<3>();
  // v_S keeps its component along m only (the friction cone meets the null plane in a sector whose
  // dual there excludes a velocity straight down); the full v_f took the same shift.
  const double scale = 1e-14 * vs_before.norm();
  EXPECT_NEAR(vs_after.dot(m), vs_before.dot(m), scale);
  EXPECT_LE((vs_after - m * m.dot(vs_after)).norm(), scale);
  EXPECT_LE(((p.v_f.segment<3>(c.offset) - before) - (vs_after - vs_before)).norm(), scale);
  // A second pass finds nothing left to shift.
  EXPECT_EQ(schur.unwedge(p), 0);
  EXPECT_LE((r.v_f.head<3>() - vs_after).norm(), scale);
}

TEST(Wedge, TheWedgedStepConvergesAndTheRodStaysAtRest) {
  const Scene sc = hinged_rod(0.0);
  // Without the correction no impulse meets the bias: nsn stops at its cap.
  const Solution raw = full_nsn_step(sc);
  EXPECT_FALSE(raw.converged());
  EXPECT_GT(raw.residual, 1e-4);

  Simulator sim(sc.model, sc.settings);  // the default: the fast path
  State s = sc.initial;
  for (int k = 0; k < 50; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_TRUE(sim.fast_path_used());
    EXPECT_EQ(sim.fast_path_wedged(), 1) << k;
    EXPECT_TRUE(sim.solution().converged()) << k << ": " << sim.solution().residual;
  }
  // No torque about the hinge, and none the contact can give: the rod has not moved.
  EXPECT_LE(s.u[0].lpNorm<Eigen::Infinity>(), 1e-12);
}

// A rod on one hinge touches the floor at a point that moves along one line m: the contact's
// impulses in the plane normal to m are the hinge's. That plane holds a push inside the friction
// cone (a wedge) exactly when the rod leans less than the friction angle atan(mu) from straight
// down; then no velocity along m lies inside the dual cone, and the floor's bias, 5 mm deep, has
// no solution without the correction (Acary et al. 2011's strict feasibility). Beyond the angle the
// NCP is solved as it is. Either way the tip rises out of the floor and the rod comes to rest.
TEST(Wedge, ARodWedgesBelowTheFrictionAngleOnly) {
  const double friction_angle = std::atan(1.0);  // MJCF's default friction 1
  for (double tilt : {0.6, 1.0}) {
    const bool wedged = tilt < friction_angle;
    const Scene sc = hinged_rod(tilt);
    const Solution raw = full_nsn_step(sc);
    EXPECT_EQ(raw.converged(), !wedged) << tilt << ": " << raw.residual;

    Simulator sim(sc.model, sc.settings);
    State s = sc.initial;
    for (int k = 0; k < 300; ++k) {
      ASSERT_TRUE(sim.step(s)) << sim.error();
      EXPECT_TRUE(sim.solution().converged()) << tilt << ": " << sim.solution().residual;
      if (k == 0) {
        EXPECT_EQ(sim.fast_path_wedged(), wedged ? 1 : 0) << tilt;
      }
    }
    ASSERT_EQ(sim.problem().count(RowKind::Contact), 1) << tilt;
    EXPECT_GT(sim.problem().f[sim.problem().blocks.back().offset + 2], -1e-6) << tilt;
    EXPECT_LE(s.u[0].lpNorm<Eigen::Infinity>(), 1e-9) << tilt;
  }
}

namespace {

// A box foot (1 kg, 20 x 4 cm, 21 cm tall) on a hinge at its centre, 20 cm under a hinge to the
// world (a 0.5 kg link between, both hinges about y), its sole 5 mm into the floor. Each corner
// alone can move up or down (the two hinges turn it one way or the other), so no contact's block
// is singular along a push inside its cone; but an equal push up at the four corners has no
// moment about either hinge, so the four together are wedged: no motion raises all four, and the
// floor's bias, which asks every corner to rise, has no solution.
Scene hinged_foot() {
  const std::string mjcf =
      "<mujoco><worldbody><geom name=\"floor\" type=\"plane\" size=\"0 0 1\"/>"
      "<body name=\"shank\" pos=\"0 0 0.3\"><joint name=\"hip\" type=\"hinge\" axis=\"0 1 0\"/>"
      "<geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.2\" size=\"0.01\" mass=\"0.5\" contype=\"0\" "
      "conaffinity=\"0\"/>"
      "<body name=\"foot\" pos=\"0 0 -0.2\"><joint name=\"ankle\" type=\"hinge\" axis=\"0 1 0\"/>"
      "<geom type=\"box\" size=\"0.1 0.02 0.105\" mass=\"1\"/>"
      "</body></body></worldbody></mujoco>";
  return scene_of(mjcf, "foot.xml");
}

}  // namespace

TEST(Wedge, FourCornersWedgedTogetherAreCorrectedTogether) {
  const Scene sc = hinged_foot();
  Problem p = first_problem(sc);  // its reduction is checked below
  ASSERT_EQ(p.count(RowKind::Contact), 4);

  JointSchur schur;
  ASSERT_TRUE(schur.reduce(p));
  const Problem& r = schur.reduced();
  ASSERT_EQ(r.nl, 12);
  EXPECT_EQ(schur.unwedge(p), 0);  // no corner is wedged alone
  SolverSettings ss = sc.settings.solver_settings;
  ss.max_iters = 200;
  SolverWorkspace ws;
  Solution before, after;
  ASSERT_TRUE(solve("nsn", r, ss, WarmStart{}, ws, before));
  EXPECT_FALSE(before.converged()) << before.residual;
  const VecX v_before = r.v_f;
  const VecX full_before = p.v_f;

  EXPECT_EQ(schur.unwedge_together(p), 4);
  const VecX shift = r.v_f - v_before;
  // The shift raises every corner's normal velocity by the same amount (the push with no moment
  // is the symmetric one) and no impulse could have given it: it lies in D_S's null space.
  for (int c = 0; c < 4; ++c) {
    EXPECT_GT(shift(3 * c + 2), 1e-3) << c;
    EXPECT_NEAR(shift(3 * c + 2), shift(2), 1e-9) << c;
  }
  EXPECT_LE((r.D_dense.topLeftCorner(12, 12) * shift).lpNorm<Eigen::Infinity>(),
            1e-9 * shift.lpNorm<Eigen::Infinity>());
  // The full problem took the same shift on its contact rows, and nothing else moved.
  const VecX full_shift = p.v_f - full_before;
  EXPECT_LE((full_shift.tail(12) - shift).lpNorm<Eigen::Infinity>(), 1e-14);
  EXPECT_EQ(full_shift.head(p.nl - 12).lpNorm<Eigen::Infinity>(), 0.0);
  ASSERT_TRUE(solve("nsn", r, ss, WarmStart{}, ws, after));
  EXPECT_TRUE(after.converged()) << after.residual;
  // A second pass finds nothing left to shift.
  EXPECT_EQ(schur.unwedge_together(p), 0);
}

TEST(Wedge, AFootWedgedTogetherStaysAtRestStepAfterStep) {
  const Scene sc = hinged_foot();
  Simulator sim(sc.model, sc.settings);  // the default: the fast path
  State s = sc.initial;
  const double e0 = total_energy(sc.model, s);
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    ASSERT_TRUE(sim.fast_path_used()) << k;
    EXPECT_EQ(sim.fast_path_wedged(), 4) << k;
    EXPECT_TRUE(sim.solution().converged()) << k << ": " << sim.solution().residual;
  }
  // Balanced on its sole under both hinges: nothing moves, and no energy came in.
  for (const Vec6& u : s.u) EXPECT_LE(u.lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_LE(total_energy(sc.model, s), e0 + 1e-9);
}
