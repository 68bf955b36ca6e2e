// Physics of the contact scenes with the foundation solver "pgs": resting, restitution, friction.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "support/builtin_scene.hpp"

namespace moreau {
namespace {

using moreau::test::scene;

double min_gap(const std::vector<Contact>& c) {
  double g = 1e300;
  for (const Contact& k : c) g = std::min(g, k.gap);
  return g;
}

TEST(ContactScenes, BoxOnPlaneSettlesOnFourContacts) {
  Scene sc = scene("box-on-plane");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 1000; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_EQ(sim.contacts().size(), 4u);
  EXPECT_GT(min_gap(sim.contacts()), -sc.settings.collision.margin);
  EXPECT_LT(s.u[0].norm(), 1e-6);
  EXPECT_NEAR(s.r[0].z(), 0.1, sc.settings.collision.margin);
}

TEST(ContactScenes, PersistentIdsStableForRestingBox) {
  Scene sc = scene("box-on-plane");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 500; ++k) ASSERT_TRUE(sim.step(s));
  std::vector<uint64_t> ids;
  for (const Contact& c : sim.contacts()) ids.push_back(c.id);
  ASSERT_EQ(ids.size(), 4u);
  for (int k = 0; k < 1000; ++k) {
    ASSERT_TRUE(sim.step(s));
    ASSERT_EQ(sim.contacts().size(), ids.size());
    for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(sim.contacts()[i].id, ids[i]) << "step " << k;
  }
}

// Newton restitution: the step that reverses the ball gives v+ = -e v- on the normal.
TEST(ContactScenes, BallDropReboundsWithRestitution) {
  Scene sc = scene("ball-drop");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  int bounces = 0;
  for (int k = 0; k < 1500 && bounces < 2; ++k) {
    const double v_before = s.u[0][2];
    ASSERT_TRUE(sim.step(s));
    if (v_before < -0.1 && s.u[0][2] > 0.0) {
      EXPECT_NEAR(s.u[0][2], -0.5 * v_before, 1e-6 * std::abs(v_before)) << "bounce " << bounces;
      ++bounces;
    }
  }
  EXPECT_EQ(bounces, 2);
}

TEST(ContactScenes, BoxInclineSticksWithFrictionHalf) {
  Scene sc = scene("box-incline");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 2000; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_LT((s.r[0] - sc.initial.r[0]).norm(), 1e-6);
}

TEST(ContactScenes, BoxInclineSlidesWithAnalyticAcceleration) {
  const double a = 20.0 * M_PI / 180.0, mu = 0.3;
  Scene sc = scene("box-incline", {{"mu", "0.3"}});
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  const Vec3 down_slope = Quat(Eigen::AngleAxisd(a, Vec3::UnitY())) * Vec3(1, 0, 0);
  for (int k = 0; k < 500; ++k) ASSERT_TRUE(sim.step(s));
  const double v0 = s.u[0].head<3>().dot(down_slope);
  for (int k = 0; k < 1000; ++k) ASSERT_TRUE(sim.step(s));
  const double v1 = s.u[0].head<3>().dot(down_slope);
  const double expected = 9.81 * (std::sin(a) - mu * std::cos(a));
  EXPECT_NEAR((v1 - v0) / 1.0, expected, 0.01 * expected);
}

TEST(ContactScenes, SlowBoxStackStandsTenSeconds) {
  Scene sc = scene("box-stack");
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 10000; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  for (int b = 0; b < s.num_bodies(); ++b) {
    EXPECT_LT((s.r[b] - sc.initial.r[b]).norm(), 1e-3) << "box " << b;
    EXPECT_LT(s.u[b].norm(), 1e-3) << "box " << b;
  }
}

TEST(ContactScenes, SpherePileStaysInTheContainer) {
  Scene sc = scene("sphere-pile", {{"n", "64"}});
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 500; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  for (int b = 0; b < s.num_bodies(); ++b) {
    EXPECT_GT(s.r[b].z(), 0.05 - 0.01);
    EXPECT_LT(s.r[b].head<2>().cwiseAbs().maxCoeff(), 0.5 - 0.05 + 0.01);
  }
}

// A cylinder standing and a capsule lying on the ground stay at rest: their manifolds (rim points,
// two end spheres) support them.
TEST(ContactScenes, StandingCylinderAndLyingCapsuleRest) {
  for (ShapeType type : {ShapeType::Cylinder, ShapeType::Capsule}) {
    ModelBuilder mb("rest");
    Body b;
    b.name = "body";
    b.inertia = Vec3(0.02, 0.02, 0.01).asDiagonal();
    mb.add_body(b);
    Geometry ground;
    ground.type = ShapeType::Plane;
    ground.body = -1;
    mb.add_geometry(ground);
    Geometry g;
    g.type = type;
    g.body = 0;
    g.radius = 0.1;
    g.half_length = 0.2;
    mb.add_geometry(g);
    Result<Model> m = mb.build();
    ASSERT_TRUE(m.ok());
    State s = State::zeros(1);
    const bool cyl = type == ShapeType::Cylinder;
    s.r[0] = cyl ? Vec3(0, 0, 0.2) : Vec3(0, 0, 0.1);
    if (!cyl) s.q[0] = Quat(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitX()));
    const State s0 = s;
    Scene sc = scene("box-on-plane");  // the contact scenes' settings
    Simulator sim(*m, sc.settings);
    for (int k = 0; k < 1000; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
    EXPECT_GE(sim.contacts().size(), cyl ? 4u : 2u);
    EXPECT_LT((s.r[0] - s0.r[0]).norm(), 1e-4) << shape_name(type);
    EXPECT_LT(s.u[0].norm(), 1e-6) << shape_name(type);
    EXPECT_LT((s.q[0].coeffs() - s0.q[0].coeffs()).norm(), 1e-6) << shape_name(type);
  }
}

TEST(ContactScenes, ParametersAreValidated) {
  EXPECT_FALSE(make_builtin_scene("sphere-pile", {{"n", "-3"}}).ok());
  EXPECT_FALSE(make_builtin_scene("box-incline", {{"mu", "abc"}}).ok());
  EXPECT_FALSE(
      make_builtin_scene("box-incline", {{"mu", "-0.5"}}).ok());  // friction < 0: model validation
}

}  // namespace
}  // namespace moreau
