// CollisionDetector: filtering (joints, groups/masks), canonical order A/B, ids, determinism.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "moreau/collision/contact.hpp"
#include "moreau/collision/mesh_io.hpp"
#include "moreau/collision/narrowphase.hpp"

namespace moreau {
namespace {

Body unit_body(const std::string& name) {
  Body b;
  b.name = name;
  return b;
}
Geometry sphere_on(int body, double r) {
  Geometry g;
  g.body = body;
  g.type = ShapeType::Sphere;
  g.radius = r;
  return g;
}

// Two overlapping spheres on two bodies, plus the ground.
struct TwoBalls {
  ModelBuilder mb{"two"};
  State s;
  TwoBalls() {
    mb.add_body(unit_body("a"));
    mb.add_body(unit_body("b"));
    Geometry ground;
    ground.type = ShapeType::Plane;
    ground.body = -1;
    mb.add_geometry(sphere_on(0, 0.1));
    mb.add_geometry(sphere_on(1, 0.1));
    mb.add_geometry(ground);
    s = State::zeros(2);
    s.r[0] = Vec3(0, 0, 0.099);
    s.r[1] = Vec3(0.19, 0, 0.099);
  }
};

// A state blowing up: bodies at 1e300 m (and one at NaN). The broadphase grid (built inside the
// detector, compiled with UBSan in the sanitized build) clamps their cells instead of overflowing
// int64_t; the two balls that still touch each other are found, the lone one far away is not.
TEST(Detector, BodiesFarBeyondTheGridAreStillPairedWithoutOverflow) {
  ModelBuilder mb{"far"};
  for (const char* n : {"a", "b", "c", "d", "e"}) mb.add_body(unit_body(n));
  for (int b = 0; b < 5; ++b) mb.add_geometry(sphere_on(b, 0.1));
  Model m = *mb.build();
  State s = State::zeros(5);
  s.r[0] = Vec3(0, 0, 0);
  s.r[1] = Vec3(1e300, -1e300, 1e300);
  s.r[2] = Vec3(1e300, -1e300, 1e300);
  s.r[3] = Vec3(-1e300, 1e300, -1e300);
  s.r[4] = Vec3(std::numeric_limits<double>::quiet_NaN(), 0, 0);
  CollisionDetector det(m);
  int far_pair = 0;
  for (const Contact& c : det.detect(s, {})) {
    EXPECT_NE(c.body[0], 3);
    EXPECT_NE(c.body[1], 3);
    far_pair += c.body[0] == 1 && c.body[1] == 2;
  }
  EXPECT_GE(far_pair, 1);
}

TEST(Detector, WorldIsAAndOrderIsByGeometryPair) {
  TwoBalls t;
  Model m = *t.mb.build();
  CollisionDetector det(m);
  const auto& c = det.detect(t.s, {});
  ASSERT_EQ(c.size(), 3u);
  // sorted by (A, B): (ball0, ball1), (ground, ball0), (ground, ball1); the world is always A
  EXPECT_EQ(c[0].geom[0], 0);
  EXPECT_EQ(c[0].geom[1], 1);
  EXPECT_NEAR(c[0].gap, -0.01, 1e-15);
  EXPECT_LT((c[0].normal - Vec3::UnitX()).norm(), 1e-15);
  EXPECT_EQ(c[1].geom[0], 2);
  EXPECT_EQ(c[1].geom[1], 0);
  EXPECT_EQ(c[1].body[0], -1);
  EXPECT_EQ(c[2].geom[0], 2);
  EXPECT_EQ(c[2].geom[1], 1);
  for (const Contact& k : c) {
    EXPECT_LT((k.frame.col(2) - k.normal).norm(), 1e-15);
    EXPECT_NEAR(k.frame.determinant(), 1.0, 1e-14);
    EXPECT_DOUBLE_EQ(k.mu, 0.5);  // sqrt(0.5 * 0.5)
  }
  EXPECT_NE(c[0].id, c[1].id);
}

TEST(Detector, JointConnectedBodiesDoNotCollideUnlessAsked) {
  for (bool connected : {false, true}) {
    TwoBalls t;
    Joint j;
    j.type = JointType::Spherical;
    j.base = 0;
    j.follower = 1;
    j.collide_connected = connected;
    t.mb.add_joint(j);
    Model m = *t.mb.build();
    CollisionDetector det(m);
    EXPECT_EQ(det.detect(t.s, {}).size(), connected ? 3u : 2u);
  }
}

TEST(Detector, GroupsAndMasks) {
  TwoBalls t;
  // ball 1 in group 2, ball 0 does not collide with group 2
  ModelBuilder mb2("masked");
  mb2.add_body(unit_body("a"));
  mb2.add_body(unit_body("b"));
  Geometry g0 = sphere_on(0, 0.1), g1 = sphere_on(1, 0.1);
  g1.group = 2;
  g0.mask = ~2u;
  mb2.add_geometry(g0);
  mb2.add_geometry(g1);
  Model mm = *mb2.build();
  CollisionDetector det(mm);
  EXPECT_TRUE(det.detect(t.s, {}).empty());
}

TEST(Detector, MarginAndDeterminism) {
  TwoBalls t;
  t.s.r[1] = Vec3(0.2005, 0, 0.5);
  t.s.r[0] = Vec3(0, 0, 0.5);
  Model m = *t.mb.build();
  CollisionDetector det(m);
  const auto c = det.detect(t.s, {1e-3});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].gap, 5e-4, 1e-15);
  EXPECT_TRUE(det.detect(t.s, {1e-4}).empty());
  CollisionDetector det2(m);
  const auto c2 = det2.detect(t.s, {1e-3});
  ASSERT_EQ(c2.size(), 1u);
  EXPECT_EQ(c2[0].id, c[0].id);
  EXPECT_EQ(c2[0].point, c[0].point);
}

TEST(Detector, ContactIdsEncodeThePair) {
  EXPECT_EQ(contact_id(3, 7, 5), (uint64_t{3} << 42) | (uint64_t{7} << 20) | 5u);
  EXPECT_NE(contact_id(3, 7, 5), contact_id(7, 3, 5));
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// Temporal coherence: a detector that carries each pair's normal from one call to the next (the
// general path's extra candidate) reports the same contacts as a fresh detector at every pose,
// on a box sliding and turning through an ellipsoid (penetrating, kinked against smooth: the
// path that samples directions), in both geometry orders. Along the way the deepest direction
// leaves the box's long axis for its thin one: the carried normal must not hold on to the first.
TEST(Detector, CarriedNormalsGiveTheContactsOfAFreshDetector) {
  for (const bool box_first : {true, false}) {
    ModelBuilder mb("coherence");
    Body a, b;
    a.name = "a";
    b.name = "b";
    mb.add_body(a);
    mb.add_body(b);
    Geometry box, ell;
    box.type = ShapeType::Box;
    box.half_extents = Vec3(0.15, 0.1, 0.05);
    ell.type = ShapeType::Ellipsoid;
    ell.half_extents = Vec3(0.15, 0.1, 0.07);
    box.body = box_first ? 0 : 1;
    ell.body = box_first ? 1 : 0;
    mb.add_geometry(box_first ? box : ell);
    mb.add_geometry(box_first ? ell : box);
    Model m = *mb.build();
    CollisionDetector carried(m);
    State s = State::zeros(2);
    int compared = 0;
    for (int k = 0; k < 60; ++k) {
      const double t = 0.01 * k;
      const int ib = box_first ? 0 : 1, ie = 1 - ib;
      s.r[ib] = Vec3(0.29 - t, 0.02 * std::sin(5 * t), 0.01);
      s.q[ib] = Quat(Eigen::AngleAxisd(0.1 + 0.5 * t, Vec3(0.3, 0.5, 1.0).normalized()));
      s.r[ie] = Vec3::Zero();
      s.q[ie] = Quat(Eigen::AngleAxisd(0.2, Vec3::UnitX()));
      const std::vector<Contact> c = carried.detect(s, {});
      CollisionDetector fresh(m);
      const std::vector<Contact>& f = fresh.detect(s, {});
      ASSERT_EQ(c.size(), f.size()) << k;
      for (size_t i = 0; i < c.size(); ++i) {
        EXPECT_NEAR(c[i].gap, f[i].gap, 1e-9) << k;
        EXPECT_LT((c[i].normal - f[i].normal).norm(), 1e-5) << k;
        compared += c[i].gap < 0.0;
      }
    }
    EXPECT_GT(compared, 20);
  }
}

// The direction that separated a pair at the step before (the detector skips the narrowphase
// while it still separates the pair by the margin) never hides a contact: two hulls of random
// points, one passing the other close enough to overlap by up to 2 cm, turning, give the contacts
// of a fresh detector at every pose, in both geometry orders.
TEST(Detector, CarriedSeparationsGiveTheContactsOfAFreshDetector) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vec3> pts;
  for (int k = 0; k < 60; ++k) pts.push_back(Vec3(u(rng), u(rng), u(rng)).normalized() * 0.1);
  const auto hull = convex_hull(pts, "random points");
  ASSERT_TRUE(hull) << hull.error().message();
  for (const bool moving_first : {true, false}) {
    ModelBuilder mb("separations");
    mb.add_body(unit_body("a"));
    mb.add_body(unit_body("b"));
    Geometry g;
    g.type = ShapeType::ConvexMesh;
    g.mesh = *hull;
    g.body = 0;
    mb.add_geometry(g);
    g.body = 1;
    mb.add_geometry(g);
    Model m = *mb.build();
    CollisionDetector carried(m);
    State s = State::zeros(2);
    const int im = moving_first ? 0 : 1;
    int apart = 0, touching = 0;
    for (int k = 0; k < 200; ++k) {
      const double t = 0.005 * k;  // x from 0.5 m through 0 to -0.5 m
      s.r[im] = Vec3(0.5 - t, 0.17 + 0.01 * std::sin(7 * t), 0.02);
      s.q[im] = Quat(Eigen::AngleAxisd(3.0 * t, Vec3(0.3, 0.5, 1.0).normalized()));
      s.q[1 - im] = Quat(Eigen::AngleAxisd(0.2, Vec3::UnitX()));
      const std::vector<Contact> c = carried.detect(s, {});
      CollisionDetector fresh(m);
      const std::vector<Contact>& f = fresh.detect(s, {});
      ASSERT_EQ(c.size(), f.size()) << k;
      for (size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i].gap, f[i].gap, 1e-9) << k;
      (c.empty() ? apart : touching)++;
    }
    EXPECT_GT(apart, 50);  // the cache had pairs to skip, on both sides of the crossing
    EXPECT_GT(touching, 20);
  }
}

// separated_along: -(h_a(n) + h_b(-n)) bounds the distance from below, and equals it along the
// line of two spheres' centres.
TEST(Detector, SeparatedAlongIsTheSupportBound) {
  Geometry ball = sphere_on(0, 0.1);
  const PlacedShape a = place(ball, Pose{Vec3::Zero(), Quat::Identity()});
  const PlacedShape b = place(ball, Pose{Vec3(0.3, 0, 0), Quat::Identity()});  // 0.1 m apart
  EXPECT_TRUE(separated_along(a, b, Vec3::UnitX(), 0.1 - 1e-12));
  EXPECT_FALSE(separated_along(a, b, Vec3::UnitX(), 0.1 + 1e-12));
  EXPECT_FALSE(separated_along(a, b, -Vec3::UnitX(), 0.0));  // the wrong way: overlap
  const Vec3 tilted = Vec3(1, 1, 0).normalized();            // 0.3 cos 45 - 0.2 = 0.012 m
  EXPECT_TRUE(separated_along(a, b, tilted, 0.012));
  EXPECT_FALSE(separated_along(a, b, tilted, 0.013));
}

}  // namespace
}  // namespace moreau
