// The quadruped's gait references (scenes/gait.hpp) tracked by stable PD servos, simulated with
// semi-implicit Euler and admm-ncp-sa: the jump leaves the ground five times in 10 s, the walk
// advances at close to its commanded speed with the trunk upright.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/scenes/builtin.hpp"
#include "moreau/scenes/gait.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {

struct GaitRun {
  int flights = 0;           // airborne phases of at least 0.15 s (all four feet off the ground)
  double max_trunk_z = 0.0;  // m
  double max_tilt = 0.0;     // rad, trunk z axis from vertical
  double x_end = 0.0;        // m, trunk CoM
  double x_at_2s = 0.0;      // m
  bool ok = true;
};

GaitRun simulate(const std::string& gait, double dt) {
  Result<Scene> sc = make_builtin_scene("quadruped", {{"gait", gait}});
  EXPECT_TRUE(sc.ok());
  Scene& scene = *sc;
  scene.settings.dt = dt;
  scene.settings.solver = "admm-ncp-sa";
  scene.settings.integrator = Integrator::SemiImplicitEuler;
  Simulator sim(scene.model, scene.settings);
  State s = scene.initial;
  const Model& m = scene.model;
  // Feet: the spheres 0.11 m below the shank CoMs, radius 0.03 (suite_robots.cpp).
  std::vector<int> shanks;
  for (int b = 0; b < m.num_bodies(); ++b)
    if (m.bodies()[b].name.find("shank") != std::string::npos) shanks.push_back(b);
  EXPECT_EQ(shanks.size(), 4u);
  GaitRun run;
  double air_since = -1.0;
  const int steps = static_cast<int>(std::lround(scene.duration / dt));
  for (int k = 1; k <= steps; ++k) {
    if (!sim.step(s)) {
      run.ok = false;
      return run;
    }
    const double t = k * dt;
    double lowest = 1e9;
    for (const int b : shanks) lowest = std::min(lowest, (s.r[b] + s.q[b] * Vec3(0, 0, -0.11)).z());
    const bool air = lowest - 0.03 > 1e-3;
    if (air && air_since < 0.0) air_since = t;
    if (!air && air_since >= 0.0) {
      run.flights += t - air_since >= 0.15;
      air_since = -1.0;
    }
    run.max_trunk_z = std::max(run.max_trunk_z, s.r[0].z());
    if (t > 0.5)
      run.max_tilt =
          std::max(run.max_tilt, std::acos(std::clamp((s.q[0] * Vec3::UnitZ()).z(), -1.0, 1.0)));
    if (k == static_cast<int>(std::lround(2.0 / dt))) run.x_at_2s = s.r[0].x();
  }
  run.x_end = s.r[0].x();
  return run;
}

}  // namespace

TEST(Gaits, JumpLeavesTheGroundFiveTimesInTenSeconds) {
  const GaitRun r = simulate("jump", 1e-3);  // diverges at 2 ms (docs/cli.md)
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.flights, 5);
  EXPECT_GT(r.max_trunk_z, 0.45);  // stands at about 0.37 m, 0.49 m at the top
  EXPECT_LT(r.max_tilt, 0.1);      // symmetric legs: no pitch or roll
}

TEST(Gaits, WalkAdvancesUpright) {
  const GaitRun r = simulate("walk", 1e-3);  // at 2 ms the trot rolls over (docs/cli.md)
  ASSERT_TRUE(r.ok);
  const double commanded = builtin::walk_speed({}) * 8.0;  // from t = 2 s to 10 s
  EXPECT_GT(r.x_end - r.x_at_2s, 0.5 * commanded);
  EXPECT_LT(r.max_tilt, 0.35);  // 20 degrees
}

TEST(Gaits, UnknownGaitIsRejected) {
  const Result<Scene> sc = make_builtin_scene("quadruped", {{"gait", "gallop"}});
  EXPECT_FALSE(sc.ok());
}
