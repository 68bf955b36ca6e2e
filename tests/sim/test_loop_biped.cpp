// A closed-loop biped (tests/data/robots/loop_biped.xml, docs/model-import.md "A closed-loop
// biped"): four parallelogram loops closed by MJCF connects, 4 redundant rows, stiff joint
// springs, armature and dry friction on the motors, a floating base of three slides and a ball,
// and foot cranks that start outside their range. With the default settings it falls and comes to
// rest with every step converged and its loops closed to 1e-8 m.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/dynamics/builder.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

const std::string kBiped = std::string(MOREAU_SOURCE_DIR) + "/tests/data/robots/loop_biped.xml";

TEST(LoopBiped, ImportsItsLoopsAndNamesTheCranksOutsideTheirRange) {
  Result<ImportedModel> r = import_mjcf_file(kBiped);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  EXPECT_EQ(m.num_bodies(), 13);
  int connects = 0;
  for (const Joint& j : m.joints()) connects += j.type == JointType::Spherical;
  EXPECT_EQ(connects, 4);
  // Closed at the initial state (the connects' anchors coincide at qpos0).
  EXPECT_LT(joint_residual(m, r->scene.initial).lpNorm<Eigen::Infinity>(), 1e-12);
  int named = 0;
  for (const std::string& w : r->warnings)
    named += w.find("foot_crank_") != std::string::npos &&
             w.find("outside its limits") != std::string::npos;
  EXPECT_EQ(named, 2);
}

TEST(LoopBiped, FallsWithItsLoopsClosedAndEveryStepConverged) {
  Result<Scene> sc = load_model_file(kBiped, {});
  ASSERT_TRUE(sc.ok()) << sc.error().message();
  const Model& m = sc->model;
  State s = sc->initial;
  Simulator sim(m, sc->settings);
  const double e0 = total_energy(m, s), step = sc->settings.dynamics.max_limit_correction;
  const int steps = static_cast<int>(std::lround(5.0 / sc->settings.dt));
  int unconverged = 0;
  bool inside = false;  // the cranks came within their range
  double closure = 0.0, gain = 0.0, depth = 0.0, limit = limit_violation(m, s);
  ASSERT_NEAR(limit, 0.1, 1e-12);  // the foot cranks start 0.1 rad outside
  for (int i = 0; i < steps; ++i) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    unconverged += !sim.solution().converged();
    closure = std::max(closure, joint_residual(m, s).lpNorm<Eigen::Infinity>());
    gain = std::max(gain, total_energy(m, s) - e0);
    for (const Contact& c : sim.contacts()) depth = std::max(depth, -c.gap);
    // The cranks come back monotonically, by at most the bias's and the projection's share;
    // once inside, the limits (the hips' too, struck in the fall) hold to 1e-6 rad.
    const double now = limit_violation(m, s);
    if (!inside) {
      EXPECT_LE(now, limit + 1e-12) << i;
      EXPECT_GE(now, limit - 2.0 * step - 1e-9) << i;
      inside = now <= 1e-8;
    } else {
      EXPECT_LE(now, 1e-6) << i;
    }
    limit = now;
  }
  EXPECT_TRUE(inside);
  EXPECT_EQ(unconverged, 0);
  EXPECT_LE(closure, 1e-8);    // every hinge and loop, after the position projection
  EXPECT_LE(gain, 0.01 * e0);  // passive: never 1% above the start
  EXPECT_LE(depth, 5e-3);
  // It fell and lies on the floor: the pelvis (a 0.1 m thick box on a base jointed to the world,
  // which collides with the floor as in MuJoCo) rests above it, not through it.
  EXPECT_LT(s.r[0].z(), 0.3);
  EXPECT_GT(s.r[0].z(), 0.045);
}

}  // namespace
}  // namespace moreau
