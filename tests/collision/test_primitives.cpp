// Primitive pairs against analytic values for random poses, pair-order symmetry, and the
// manifolds that make resting contact stable.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "moreau/collision/narrowphase.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {
namespace {

Geometry shape(ShapeType t, double r = 0.0, double hl = 0.0, Vec3 he = Vec3::Zero()) {
  Geometry g;
  g.type = t;
  g.radius = r;
  g.half_length = hl;
  g.half_extents = he;
  return g;
}
Geometry box(const Vec3& h) {
  return shape(ShapeType::Box, 0, 0, h);
}
Geometry sphere(double r) {
  return shape(ShapeType::Sphere, r);
}
Geometry capsule(double r, double hl) {
  return shape(ShapeType::Capsule, r, hl);
}
Geometry cylinder(double r, double hl) {
  return shape(ShapeType::Cylinder, r, hl);
}
Geometry plane() {
  return shape(ShapeType::Plane);
}

std::vector<ContactPoint> run(const Geometry& a, const Pose& Xa, const Geometry& b, const Pose& Xb,
                              double margin = 1e-3) {
  std::vector<ContactPoint> out;
  collide({&a, Xa, nullptr}, {&b, Xb, nullptr}, margin, out);
  return out;
}

struct Rng {
  std::mt19937_64 g{12345};
  double u(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }
  Quat q() {
    Quat r(u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1));
    return r.normalized();
  }
  Vec3 v(double s) { return Vec3(u(-s, s), u(-s, s), u(-s, s)); }
};

double min_gap(const std::vector<ContactPoint>& c) {
  double m = 1e300;
  for (const auto& p : c) m = std::min(m, p.gap);
  return m;
}

TEST(Primitives, SphereSphereAnalytic) {
  Rng r;
  for (int k = 0; k < 200; ++k) {
    const double ra = r.u(0.1, 1), rb = r.u(0.1, 1);
    const Pose Xa{r.v(1), r.q()}, Xb{r.v(1), r.q()};
    const auto c = run(sphere(ra), Xa, sphere(rb), Xb, 10.0);
    ASSERT_EQ(c.size(), 1u);
    const Vec3 d = Xb.p - Xa.p;
    EXPECT_NEAR(c[0].gap, d.norm() - ra - rb, 1e-14);
    EXPECT_LT((c[0].normal - d.normalized()).norm(), 1e-14);
    EXPECT_LT((c[0].point - (Xa.p + ra * d.normalized())).norm(), 1e-14);
  }
}

TEST(Primitives, PlaneAgainstSphereCapsuleBoxEllipsoid) {
  Rng r;
  for (int k = 0; k < 200; ++k) {
    const Pose P{r.v(1), r.q()}, X{r.v(1), r.q()};
    const Vec3 n = P.R().col(2);
    auto height = [&](const Vec3& x) { return n.dot(x - P.p); };
    // sphere: gap = n.(c - p) - r
    auto c = run(plane(), P, sphere(0.3), X, 10.0);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].gap, height(X.p) - 0.3, 1e-13);
    EXPECT_LT((c[0].normal - n).norm(), 1e-14);
    EXPECT_NEAR(height(c[0].point), 0.0, 1e-13);  // witness on the plane
    // box: the vertex gaps
    const Vec3 h(0.2, 0.3, 0.4);
    c = run(plane(), P, box(h), X, 10.0);
    ASSERT_EQ(c.size(), 8u);
    double lowest = 1e300;
    for (int v = 0; v < 8; ++v)
      lowest = std::min(lowest, height(X * Vec3((v & 1 ? 1 : -1) * h.x(), (v & 2 ? 1 : -1) * h.y(),
                                                (v & 4 ? 1 : -1) * h.z())));
    EXPECT_NEAR(min_gap(c), lowest, 1e-13);
    // capsule: the two end spheres
    c = run(plane(), P, capsule(0.1, 0.5), X, 10.0);
    ASSERT_EQ(c.size(), 2u);
    const Vec3 a = X.R().col(2);
    EXPECT_NEAR(min_gap(c), std::min(height(X.p + 0.5 * a), height(X.p - 0.5 * a)) - 0.1, 1e-13);
    // ellipsoid: h(-n) = |A R^T n| (support function of an ellipsoid)
    Geometry e = shape(ShapeType::Ellipsoid, 0, 0, Vec3(0.1, 0.2, 0.3));
    c = run(plane(), P, e, X, 10.0);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].gap, height(X.p) - e.half_extents.cwiseProduct(X.R().transpose() * n).norm(),
                1e-13);
    // cylinder: lowest rim point, centre height - L |n.a| - r sqrt(1 - (n.a)^2)
    c = run(plane(), P, cylinder(0.2, 0.3), X, 10.0);
    const double na = n.dot(a);
    EXPECT_NEAR(min_gap(c), height(X.p) - 0.3 * std::abs(na) - 0.2 * std::sqrt(1 - na * na), 1e-13);
  }
}

// Sphere-box: outside, distance to the clamped point; inside, depth to the nearest face.
TEST(Primitives, SphereBoxAnalytic) {
  Rng r;
  const Vec3 h(0.3, 0.4, 0.5);
  for (int k = 0; k < 300; ++k) {
    const Pose Xb{r.v(0.5), r.q()};
    const Vec3 c = Xb.p + r.v(0.9);
    const double rad = r.u(0.05, 0.3);
    const auto out = run(sphere(rad), {c, Quat::Identity()}, box(h), Xb, 10.0);
    ASSERT_EQ(out.size(), 1u);
    const Vec3 cl = Xb.R().transpose() * (c - Xb.p);
    double expect;
    if ((cl.array().abs() <= h.array()).all())
      expect = -(h - cl.cwiseAbs()).minCoeff() - rad;
    else
      expect = (cl - cl.cwiseMax(-h).cwiseMin(h)).norm() - rad;
    EXPECT_NEAR(out[0].gap, expect, 1e-13);
    // the witness on B lies on the box surface
    const Vec3 wb = Xb.R().transpose() * (out[0].point + out[0].gap * out[0].normal - Xb.p);
    EXPECT_NEAR((wb.cwiseAbs() - h).maxCoeff(), 0.0, 1e-12);
  }
}

// Capsules: distance of the axis segments (brute-force sampled and refined) minus the radii.
double segment_distance(const Vec3& p, const Vec3& u, double hp, const Vec3& q, const Vec3& v,
                        double hq) {
  double best = 1e300, bs = 0, bt = 0;
  for (int i = 0; i <= 200; ++i)
    for (int j = 0; j <= 200; ++j) {
      const double s = -hp + 2 * hp * i / 200, t = -hq + 2 * hq * j / 200;
      const double d = (p + s * u - q - t * v).norm();
      if (d < best) best = d, bs = s, bt = t;
    }
  for (double step = 2 * std::max(hp, hq) / 200; step > 1e-13; step *= 0.5)  // compass search
    for (bool moved = true; moved;) {
      moved = false;
      for (auto [ds, dt] : {std::pair{1., 0.}, {-1., 0.}, {0., 1.}, {0., -1.}}) {
        const double s = std::clamp(bs + ds * step, -hp, hp),
                     t = std::clamp(bt + dt * step, -hq, hq);
        const double d = (p + s * u - q - t * v).norm();
        if (d < best - 1e-16) best = d, bs = s, bt = t, moved = true;
      }
    }
  return best;
}

TEST(Primitives, CapsulePairsAnalytic) {
  Rng r;
  for (int k = 0; k < 60; ++k) {
    const Pose Xa{r.v(0.5), r.q()}, Xb{r.v(0.5), r.q()};
    const Vec3 a = Xa.R().col(2), b = Xb.R().col(2);
    auto c = run(capsule(0.1, 0.3), Xa, capsule(0.15, 0.2), Xb, 10.0);
    ASSERT_GE(c.size(), 1u);
    EXPECT_NEAR(min_gap(c), segment_distance(Xa.p, a, 0.3, Xb.p, b, 0.2) - 0.25, 1e-9);
    c = run(sphere(0.2), Xa, capsule(0.15, 0.2), Xb, 10.0);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].gap, segment_distance(Xa.p, a, 0.0, Xb.p, b, 0.2) - 0.35, 1e-9);
  }
}

// Box-box: the SAT depth is exact for polyhedra; compare with GJK/EPA (an independent algorithm).
TEST(Primitives, BoxBoxMatchesGjkEpa) {
  Rng r;
  const Geometry A = box(Vec3(0.3, 0.2, 0.1)), B = box(Vec3(0.15, 0.25, 0.2));
  int tested = 0;
  for (int k = 0; k < 300; ++k) {
    const Pose Xa{r.v(0.1), r.q()}, Xb{r.v(0.5), r.q()};
    const auto c = run(A, Xa, B, Xb, 10.0);
    ContactPoint g;
    ASSERT_TRUE(convex_distance(place(A, Xa), place(B, Xb), &g));
    if (g.gap > 0.0) continue;  // separated boxes: SAT gives a lower bound only (see docs)
    ASSERT_GE(c.size(), 1u);
    EXPECT_NEAR(min_gap(c), g.gap, 1e-7) << k;
    ++tested;
  }
  EXPECT_GT(tested, 50);
}

TEST(Manifolds, BoxOnPlaneHasFourPoints) {
  const auto c = run(plane(), {}, box(Vec3(0.1, 0.2, 0.3)), {Vec3(0, 0, 0.3), Quat::Identity()});
  ASSERT_EQ(c.size(), 4u);
  for (const auto& p : c) EXPECT_NEAR(p.gap, 0.0, 1e-15);
}

TEST(Manifolds, BoxOnBoxFaceToFace) {
  const Geometry A = box(Vec3(0.5, 0.5, 0.1)), B = box(Vec3(0.1, 0.1, 0.1));
  // small box inside the big top face: its 4 bottom corners
  auto c = run(A, {}, B, {Vec3(0.1, 0.0, 0.2 - 1e-4), Quat::Identity()});
  EXPECT_EQ(c.size(), 4u);
  for (const auto& p : c) EXPECT_NEAR(p.gap, -1e-4, 1e-12);
  // equal boxes, one turned 45 degrees about z: clipped octagon, 8 points
  const Geometry C = box(Vec3(0.1, 0.1, 0.1));
  c = run(C, {}, C, {Vec3(0, 0, 0.2 - 1e-4), Quat(Eigen::AngleAxisd(0.25 * M_PI, Vec3::UnitZ()))});
  EXPECT_EQ(c.size(), 8u);
  for (const auto& p : c) EXPECT_NEAR(p.gap, -1e-4, 1e-12);
}

// A flat sole meshed with a 9 x 5 grid of vertices: every vertex touches the plane, the manifold
// keeps the 4 corners of the support polygon; tilted, the deepest vertex is kept.
TEST(Manifolds, MeshSoleOnPlaneKeepsTheSupportPolygonsCorners) {
  auto mesh = std::make_shared<MeshData>();
  const double hx = 0.1, hy = 0.05;
  for (int i = 0; i <= 8; ++i)
    for (int j = 0; j <= 4; ++j)
      mesh->vertices.push_back(Vec3(-hx + hx * i / 4, -hy + hy * j / 2, 0));
  for (const Vec3 c :
       {Vec3(-hx, -hy, 0.04), Vec3(hx, -hy, 0.04), Vec3(-hx, hy, 0.04), Vec3(hx, hy, 0.04)})
    mesh->vertices.push_back(c);
  Geometry sole = shape(ShapeType::ConvexMesh);
  sole.mesh = mesh;
  auto c = run(plane(), {}, sole, {Vec3(0, 0, -1e-4), Quat::Identity()});
  ASSERT_EQ(c.size(), 4u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.gap, -1e-4, 1e-15);
    EXPECT_NEAR(std::abs(p.point.x()), hx, 1e-15);
    EXPECT_NEAR(std::abs(p.point.y()), hy, 1e-15);
  }
  // Four distinct corners: the sum of the kept points is the polygon's centre.
  Vec3 sum = Vec3::Zero();
  for (const auto& p : c) sum += p.point;
  EXPECT_LT(sum.head<2>().norm(), 1e-15);
  // Tilted 1 degree about y (toes down): the deepest vertex (x = +hx) is the first kept.
  const Quat tilt(Eigen::AngleAxisd(1.0 * M_PI / 180.0, Vec3::UnitY()));
  c = run(plane(), {}, sole, {Vec3(0, 0, 0.0005), tilt}, 1e-2);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].gap, min_gap(c));
  EXPECT_NEAR(c[0].point.x(), std::cos(M_PI / 180.0) * hx, 1e-12);
  // Collinear contacts (a knife edge): two points, the ends.
  std::vector<ContactPoint> line;
  for (int i = 0; i <= 10; ++i) line.push_back({Vec3(0.01 * i, 0, 0), Vec3::UnitZ(), -1e-3, 0u});
  line[5].gap = -2e-3;
  reduce_manifold(line, 0, Vec3::UnitZ(), kMaxManifold);
  ASSERT_EQ(line.size(), 2u);
  EXPECT_EQ(line[0].point.x(), 0.05);
  EXPECT_NEAR(std::abs(line[1].point.x() - 0.05), 0.05, 1e-15);
}

// A sole whose toe and heel are rounded: besides the four corners of the flat sole (touching, 0.1
// mm deep), outline vertices 4 mm further out and 0.8 mm up, within the margin. The manifold keeps
// the four touching corners; the outline, which spans a larger polygon, must not displace them,
// or the support jumps between toe and heel from step to step.
TEST(Manifolds, MeshSoleKeepsTheTouchingCornersOverItsRoundedOutline) {
  auto mesh = std::make_shared<MeshData>();
  const double hx = 0.14, hy = 0.03;
  for (const double sx : {-1.0, 1.0})
    for (const double sy : {-1.0, 1.0}) {
      mesh->vertices.push_back(Vec3(sx * hx, sy * hy, 0));
      mesh->vertices.push_back(Vec3(sx * (hx + 0.004), sy * hy, 0.0008));
      mesh->vertices.push_back(Vec3(sx * hx, sy * hy, 0.05));
    }
  Geometry sole = shape(ShapeType::ConvexMesh);
  sole.mesh = mesh;
  const auto c = run(plane(), {}, sole, {Vec3(0, 0, -1e-4), Quat::Identity()}, 1e-3);
  ASSERT_EQ(c.size(), 4u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.gap, -1e-4, 1e-15);
    EXPECT_NEAR(std::abs(p.point.x()), hx, 1e-15);
  }
}

// A finely meshed flat sole whose vertices are level to rounding (gaps differing by 1e-11 m, a
// tilt of 1e-10 rad): the manifold keeps its four corners when a replacement must be deeper by the
// threshold the plane pair uses (margin / 100), and loses them to interior vertices without one,
// which is how a resting sole's vertices took turns from step to step.
TEST(Manifolds, LevelSoleKeepsItsCornersUnderTheDepthThreshold) {
  const double hx = 0.1, hy = 0.05;
  std::vector<ContactPoint> sole;
  for (int i = 0; i <= 40; ++i)
    for (int j = 0; j <= 20; ++j) {
      const Vec3 x(-hx + hx * i / 20, -hy + hy * j / 10, 0.0);
      sole.push_back({x, Vec3::UnitZ(), -1e-4 - 1e-10 * (x.x() + 0.5 * x.y()),
                      static_cast<uint32_t>(sole.size())});
    }
  auto corners = [&](std::vector<ContactPoint> c, double deeper) {
    reduce_manifold(c, 0, Vec3::UnitZ(), kMaxManifold, deeper);
    int n = 0;
    for (const auto& p : c)
      n += std::abs(std::abs(p.point.x()) - hx) < 1e-12 &&
           std::abs(std::abs(p.point.y()) - hy) < 1e-12;
    return n;
  };
  EXPECT_EQ(corners(sole, 1e-5), 4);
  EXPECT_LT(corners(sole, 0.0), 4);
}

TEST(Manifolds, CapsuleLyingOnPlaneHasTwoPoints) {
  const Quat lying(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitX()));
  const auto c = run(plane(), {}, capsule(0.1, 0.5), {Vec3(0, 0, 0.1), lying});
  ASSERT_EQ(c.size(), 2u);
  EXPECT_GT((c[0].point - c[1].point).norm(), 0.99);
}

TEST(Manifolds, CylinderStandingHasASupportPolygon) {
  auto c = run(plane(), {}, cylinder(0.2, 0.3), {Vec3(0, 0, 0.3), Quat::Identity()});
  ASSERT_GE(c.size(), 3u);
  // the contact points surround the centre of mass: it lies in their convex hull (x, y)
  double minx = 1e9, maxx = -1e9, miny = 1e9, maxy = -1e9;
  for (const auto& p : c) {
    minx = std::min(minx, p.point.x());
    maxx = std::max(maxx, p.point.x());
    miny = std::min(miny, p.point.y());
    maxy = std::max(maxy, p.point.y());
  }
  EXPECT_LT(minx, -0.1);
  EXPECT_GT(maxx, 0.1);
  EXPECT_LT(miny, -0.1);
  EXPECT_GT(maxy, 0.1);
  const Quat lying(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitX()));
  c = run(plane(), {}, cylinder(0.2, 0.3), {Vec3(0, 0, 0.2), lying});
  EXPECT_GE(c.size(), 2u);
}

TEST(Manifolds, MarginGivesPositiveGaps) {
  auto c = run(plane(), {}, sphere(0.1), {Vec3(0, 0, 0.1005), Quat::Identity()}, 1e-3);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].gap, 5e-4, 1e-15);
  c = run(plane(), {}, sphere(0.1), {Vec3(0, 0, 0.1015), Quat::Identity()}, 1e-3);
  EXPECT_TRUE(c.empty());
}

// Swapping A and B flips the normal, moves the point to B's witness, and changes nothing else.
TEST(Primitives, PairOrderDoesNotMatter) {
  Rng r;
  std::vector<Geometry> shapes = {sphere(0.2),
                                  capsule(0.1, 0.2),
                                  cylinder(0.15, 0.2),
                                  box(Vec3(0.1, 0.2, 0.15)),
                                  shape(ShapeType::Ellipsoid, 0, 0, Vec3(0.1, 0.15, 0.25)),
                                  plane()};
  auto pts = std::make_shared<MeshData>();
  for (int k = 0; k < 20; ++k) pts->vertices.push_back(r.v(0.15));
  Geometry hull = shape(ShapeType::ConvexMesh);
  hull.mesh = pts;
  shapes.push_back(hull);

  for (int k = 0; k < 40; ++k)
    for (size_t i = 0; i < shapes.size(); ++i)
      for (size_t j = 0; j < shapes.size(); ++j) {
        const Pose Xa{r.v(0.2), r.q()}, Xb{r.v(0.2), r.q()};
        const auto ab = run(shapes[i], Xa, shapes[j], Xb, 10.0);
        const auto ba = run(shapes[j], Xb, shapes[i], Xa, 10.0);
        ASSERT_EQ(ab.size(), ba.size()) << i << " " << j;
        for (size_t m = 0; m < ab.size(); ++m) {
          EXPECT_EQ(ab[m].gap, ba[m].gap);
          EXPECT_EQ(ab[m].feature, ba[m].feature);
          EXPECT_LT((ab[m].normal + ba[m].normal).norm(), 1e-15);
          EXPECT_LT((ab[m].point + ab[m].gap * ab[m].normal - ba[m].point).norm(), 1e-12);
        }
      }
}

}  // namespace
}  // namespace moreau
