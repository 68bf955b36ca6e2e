// The blow-up check (sim/blowup.hpp): silent on a sane run, and each of its three quantities named
// with the joint or bodies when a state crosses its limit.
#include <gtest/gtest.h>

#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/blowup.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(Blowup, SilentOnAConvergedRunAndNamesEachQuantity) {
  Result<Scene> sc = make_builtin_scene("chain", {{"n", "4"}});
  ASSERT_TRUE(sc.ok()) << sc.error().message();
  const Model& m = sc->model;
  State s = sc->initial;
  Simulator sim(m, sc->settings);
  const double e0 = total_energy(m, s);
  double e = e0;
  for (int i = 0; i < 200; ++i) {  // a swinging chain: energy traded, joints kept
    ASSERT_TRUE(sim.step(s)) << sim.error();
    const double next = total_energy(m, s);
    EXPECT_EQ(blowup(m, s, constraint_violation(m, s), e0, e, next, sim.contacts()), "")
        << "step " << i;
    e = next;
  }
  // Body 2 moved 5 cm: a joint of body 2 is named (its translation rows take at least 5 / sqrt 3
  // cm of it in any frame), unless the limit is raised past the displacement.
  State bad = s;
  bad.r[2] += Vec3(0.05, 0.0, 0.0);
  const std::string j = blowup(m, bad, constraint_violation(m, bad), e0, e, e, {});
  bool named = false;
  for (const Joint& jt : m.joints())
    named |= (jt.follower == 2 || jt.base == 2) && has(j, "joint '" + jt.name + "' violated by");
  EXPECT_TRUE(named) << j;
  BlowupLimits wide;
  wide.joint_violation = 0.06;
  EXPECT_EQ(blowup(m, bad, constraint_violation(m, bad), e0, e, e, {}, wide), "");
  // Energy: 100x the larger of |E_before| and |E_0| (and 1 J) in one step, not 99x.
  const double scale = std::max({std::abs(e), std::abs(e0), 1.0});
  EXPECT_EQ(blowup(m, s, 0.0, e0, e, e + 98.0 * scale, {}), "");
  EXPECT_TRUE(has(blowup(m, s, 0.0, e0, e, e + 100.0 * scale, {}), "energy rose from"));
  // A contact 11 cm deep between body 0 and the world: both named.
  Contact c;
  c.body[0] = -1;
  c.body[1] = 0;
  c.gap = -0.11;
  const std::string p = blowup(m, s, 0.0, e0, e, e, {c});
  EXPECT_TRUE(has(p, "world")) << p;
  EXPECT_TRUE(has(p, "'" + m.bodies()[0].name + "'")) << p;
  EXPECT_TRUE(has(p, "penetrate by 0.11 m")) << p;
  c.gap = -0.09;
  EXPECT_EQ(blowup(m, s, 0.0, e0, e, e, {c}), "");
}

}  // namespace
}  // namespace moreau
