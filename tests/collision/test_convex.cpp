// General convex pairs (GJK/EPA + support-function refinement) against an independent
// computation: the signed distance d = max_{|n| = 1} -(h_A(n) + h_B(-n)) maximized by dense
// sampling of the sphere and a compass search, with support functions written out here.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {
namespace {

// Support function h(n) = max_x n.x of a geometry at pose X, from its closed form.
double h_closed(const Geometry& g, const Pose& X, const Vec3& n) {
  const Vec3 m = X.R().transpose() * n;  // local direction
  const double c = n.dot(X.p);
  switch (g.type) {
    case ShapeType::Sphere:
      return c + g.radius * n.norm();
    case ShapeType::Ellipsoid:
      return c + g.half_extents.cwiseProduct(m).norm();
    case ShapeType::Box:
      return c + g.half_extents.dot(m.cwiseAbs());
    case ShapeType::Capsule:
      return c + g.half_length * std::abs(m.z()) + g.radius * m.norm();
    case ShapeType::Cylinder:
      return c + g.half_length * std::abs(m.z()) + g.radius * std::hypot(m.x(), m.y());
    default:
      return NAN;
  }
}

double maximize_on_sphere(const std::function<double(const Vec3&)>& f, int N,
                          const Vec3* seed = nullptr);

// Minimum of f, convex on [lo, hi], by golden-section search to an interval of tol (the ends
// included: the minimum may sit at one).
double golden_min(const std::function<double(double)>& f, double lo, double hi, double tol) {
  const double a = lo, b = hi, phi = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = f(x1), f2 = f(x2);
  while (hi - lo > tol) {
    if (f1 < f2)
      hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = f(x1);
    else
      lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = f(x2);
  }
  return std::min({f1, f2, f(a), f(b)});
}

double independent_distance(const Geometry& a, const Pose& Xa, const Geometry& b, const Pose& Xb,
                            int N = 20000) {
  if (a.type == ShapeType::Capsule) {
    // Capsule = segment swept sphere: d = min_s d(sphere(c + s a, r), B), a convex function of s
    // (signed distance to a convex set is convex): golden-section search over s.
    const Vec3 ax = Xa.R().col(2);
    auto ds = [&](double s) {
      const Vec3 p = Xa.p + s * ax;
      return maximize_on_sphere(
          [&](const Vec3& n) { return -(n.dot(p) + a.radius + h_closed(b, Xb, -n)); }, 2000);
    };
    return golden_min(ds, -a.half_length, a.half_length, 1e-9);
  }
  return maximize_on_sphere(
      [&](const Vec3& n) { return -(h_closed(a, Xa, n) + h_closed(b, Xb, -n)); }, N);
}

double maximize_on_sphere(const std::function<double(const Vec3&)>& f, int N, const Vec3* seed) {
  // Fibonacci sampling, then compass search around the best samples in (theta, phi) of a frame
  // whose pole is the sample (no coordinate singularity near the optimum).
  std::vector<std::pair<double, Vec3>> best;
  for (int i = 0; i < N; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / N, ph = i * 2.399963229728653;
    const Vec3 n(std::sqrt(1 - z * z) * std::cos(ph), std::sqrt(1 - z * z) * std::sin(ph), z);
    best.push_back({f(n), n});
  }
  std::partial_sort(best.begin(), best.begin() + 4, best.end(),
                    [](auto& x, auto& y) { return x.first > y.first; });
  best.resize(4);
  if (seed) best.push_back({f(*seed), *seed});
  double result = -1e300;
  for (size_t s = 0; s < best.size(); ++s) {
    const Vec3 pole = best[s].second;
    const Vec3 t = pole.unitOrthogonal(), o = pole.cross(t);
    auto g = [&](double x, double y) { return f((pole + x * t + y * o).normalized()); };
    double x = 0, y = 0, fx = g(0, 0);
    for (double step = 0.05; step > 1e-13; step *= 0.5)
      for (bool moved = true; moved;) {
        moved = false;
        for (int k = 0; k < 8; ++k) {
          const double xx = x + step * std::cos(k * M_PI / 4),
                       yy = y + step * std::sin(k * M_PI / 4);
          const double v = g(xx, yy);
          if (v > fx) x = xx, y = yy, fx = v, moved = true;
        }
      }
    result = std::max(result, fx);
  }
  return result;
}

Geometry make(ShapeType t, double r, double hl, Vec3 he) {
  Geometry g;
  g.type = t;
  g.radius = r;
  g.half_length = hl;
  g.half_extents = he;
  return g;
}

// A point of the shape near p: the closest point (box, cylinder, capsule, sphere), radial scaling
// for the ellipsoid. A pair of points of A and B bounds the distance from above.
Vec3 into_shape(const Geometry& g, const Pose& X, const Vec3& p) {
  Vec3 q = X.R().transpose() * (p - X.p);
  switch (g.type) {
    case ShapeType::Sphere:
      if (q.norm() > g.radius) q *= g.radius / q.norm();
      break;
    case ShapeType::Ellipsoid: {
      const double sc = q.cwiseQuotient(g.half_extents).norm();
      if (sc > 1.0) q /= sc;
      break;
    }
    case ShapeType::Box:
      q = q.cwiseMax(-g.half_extents).cwiseMin(g.half_extents);
      break;
    case ShapeType::Cylinder: {
      q.z() = std::clamp(q.z(), -g.half_length, g.half_length);
      const double rr = std::hypot(q.x(), q.y());
      if (rr > g.radius) q.head<2>() *= g.radius / rr;
      break;
    }
    case ShapeType::Capsule: {
      const Vec3 seg(0, 0, std::clamp(q.z(), -g.half_length, g.half_length));
      if ((q - seg).norm() > g.radius) q = seg + g.radius * (q - seg).normalized();
      break;
    }
    default:
      break;
  }
  return X.p + X.R() * q;
}

// Smooth pairs: agreement with the sampler to 1e-9 relative. Kinked support functions (box,
// cylinder, capsule), where a sampler can stall on a ridge: separated pairs are certified by the
// duality gap, lower bound -(h_A(n) + h_B(-n)) from the closed-form supports and upper bound from
// the witness points moved into the shapes, within 1e-9 relative; penetrating pairs must be at
// least as deep-optimal as an independent search seeded with 20000 directions and the detector's
// normal (no direction found that improves the signed distance by more than 1e-9 relative).
void check_pairs(const Geometry& A, const Geometry& B, int count, double spread, int seed,
                 bool exact = true) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  int pen = 0, sep = 0;
  for (int k = 0; k < count; ++k) {
    const Pose Xa{Vec3(u(rng), u(rng), u(rng)) * 0.1,
                  Quat(u(rng), u(rng), u(rng), u(rng)).normalized()};
    const Pose Xb{Vec3(u(rng), u(rng), u(rng)) * spread,
                  Quat(u(rng), u(rng), u(rng), u(rng)).normalized()};
    ContactPoint c;
    ASSERT_TRUE(convex_distance(place(A, Xa), place(B, Xb), &c));
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-14);
    const double lower = -(h_closed(A, Xa, c.normal) + h_closed(B, Xb, -c.normal));
    EXPECT_NEAR(c.gap, lower, 1e-12);  // the reported gap is attained by the reported normal
    if (exact) {
      const double d = independent_distance(A, Xa, B, Xb);
      EXPECT_NEAR(c.gap, d, 1e-9 * std::max(std::abs(d), 0.1)) << "pose " << k;
    } else if (c.gap > 0.0) {
      // B is strictly convex here: its witness is exact; A's closest point to it is exact too
      const Vec3 pb = into_shape(B, Xb, c.point + c.gap * c.normal), pa = into_shape(A, Xa, pb);
      EXPECT_LT((pb - pa).norm() - lower, 1e-9 * std::max(c.gap, 0.1)) << "pose " << k;
    } else {
      const double d = maximize_on_sphere(
          [&](const Vec3& n) { return -(h_closed(A, Xa, n) + h_closed(B, Xb, -n)); }, 20000,
          &c.normal);
      EXPECT_LT(d - c.gap, 1e-9 * std::max(std::abs(d), 0.1)) << "pose " << k;
    }
    (c.gap < 0 ? pen : sep)++;
  }
  EXPECT_GT(pen, 0);
  EXPECT_GT(sep, 0);
}

const Geometry kEll = make(ShapeType::Ellipsoid, 0, 0, Vec3(0.1, 0.2, 0.3));
const Geometry kEll2 = make(ShapeType::Ellipsoid, 0, 0, Vec3(0.25, 0.15, 0.1));

TEST(ConvexPairs, EllipsoidEllipsoid) {
  check_pairs(kEll, kEll2, 30, 0.5, 1);
}
TEST(ConvexPairs, EllipsoidSphere) {
  check_pairs(make(ShapeType::Sphere, 0.2, 0, Vec3::Zero()), kEll, 30, 0.5, 2);
}
TEST(ConvexPairs, CapsuleEllipsoid) {
  check_pairs(make(ShapeType::Capsule, 0.1, 0.2, Vec3::Zero()), kEll, 10, 0.5, 3, false);
}
TEST(ConvexPairs, CylinderEllipsoid) {
  check_pairs(make(ShapeType::Cylinder, 0.15, 0.2, Vec3::Zero()), kEll, 30, 0.5, 4, false);
}
TEST(ConvexPairs, BoxEllipsoid) {
  check_pairs(make(ShapeType::Box, 0, 0, Vec3(0.1, 0.2, 0.15)), kEll, 30, 0.5, 5, false);
}
TEST(ConvexPairs, CylinderSphere) {
  check_pairs(make(ShapeType::Cylinder, 0.15, 0.2, Vec3::Zero()),
              make(ShapeType::Sphere, 0.1, 0, Vec3::Zero()), 30, 0.5, 6, false);
}

// Separated pairs whose support functions both have ridges at the answer, with closed-form gaps:
// a tilted cylinder above a box's top face (the box's face normal, the cylinder's rim), and two
// upright cylinders side by side (the normal across both axes), as humanoid100's resting
// cylinders and boxes meet. The gap to 1e-12 m and the normal to 1e-9.
TEST(ConvexPairs, SeparatedRidgesHaveTheClosedFormGap) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const Geometry box = make(ShapeType::Box, 0, 0, Vec3(1.0, 1.0, 0.1));
  const Geometry cyl = make(ShapeType::Cylinder, 0.05, 0.1, Vec3::Zero());
  for (int k = 0; k < 40; ++k) {
    const double tilt = 0.5 * u(rng), yaw = 6.0 * u(rng), gap = 1e-5 + 1e-2 * u(rng);
    const Quat q =
        Quat(Eigen::AngleAxisd(yaw, Vec3::UnitZ())) * Quat(Eigen::AngleAxisd(tilt, Vec3::UnitX()));
    const double low = cyl.half_length * std::cos(tilt) + cyl.radius * std::sin(tilt);
    const Pose Xc{Vec3(0.3 * u(rng), 0.3 * u(rng), 0.1 + low + gap), q};
    ContactPoint c;
    ASSERT_TRUE(convex_distance(place(box, Pose{}), place(cyl, Xc), &c));
    EXPECT_NEAR(c.gap, gap, 1e-12) << "pose " << k;
    EXPECT_NEAR(c.normal.z(), 1.0, 1e-9) << "pose " << k;
  }
  for (int k = 0; k < 40; ++k) {
    const double angle = 6.0 * u(rng), gap = 1e-5 + 1e-2 * u(rng);
    const Vec3 across(std::cos(angle), std::sin(angle), 0.0);
    const Pose Xa{Vec3::Zero(), Quat::Identity()};
    const Pose Xb{(2.0 * cyl.radius + gap) * across + Vec3(0.0, 0.0, 0.1 * (u(rng) - 0.5)),
                  Quat(Eigen::AngleAxisd(6.0 * u(rng), Vec3::UnitZ()))};
    ContactPoint c;
    ASSERT_TRUE(convex_distance(place(cyl, Xa), place(cyl, Xb), &c));
    EXPECT_NEAR(c.gap, gap, 1e-12) << "pose " << k;
    EXPECT_NEAR(c.normal.dot(across), 1.0, 1e-9) << "pose " << k;
  }
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// Closest point of triangle (a, b, c) to p (Ericson, Real-Time Collision Detection 5.1.5).
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double den = 1.0 / (va + vb + vc);
  return a + ab * (vb * den) + ac * (vc * den);
}

// Sphere against a convex hull (general path): the distance from the centre to the hull's
// triangles minus the radius, for centres outside the hull.
// A sphere's or capsule's signed distance to a hull is its core's (centre's, segment's) distance
// less its radius, where the core lies outside: against the brute-force point-triangle distance to
// the hull's faces (minimized along the capsule's segment by golden sections, a convex function),
// separated and penetrating.
TEST(ConvexPairs, SphereAndCapsuleAgainstAHullMatchPointTriangleDistances) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  auto mesh = std::make_shared<MeshData>();
  for (int k = 0; k < 30; ++k)
    mesh->vertices.push_back(Vec3(u(rng), u(rng), u(rng)).normalized() * 0.3);
  Geometry hull;
  hull.type = ShapeType::ConvexMesh;
  hull.mesh = mesh;  // support = max over vertices: the hull's triangles are not needed
  // triangles of the hull for the reference: all triples on the hull's boundary planes
  std::vector<std::array<Vec3, 3>> faces;
  const auto& v = mesh->vertices;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i + 1; j < v.size(); ++j)
      for (size_t k = j + 1; k < v.size(); ++k) {
        const Vec3 nrm = (v[j] - v[i]).cross(v[k] - v[i]);
        bool pos = false, neg = false;
        for (const Vec3& w : v) {
          const double s = nrm.dot(w - v[i]);
          pos |= s > 1e-12;
          neg |= s < -1e-12;
        }
        if (!(pos && neg)) faces.push_back({v[i], v[j], v[k]});
      }
  // Distance of a point outside the hull to it (the nearest face point).
  auto point_distance = [&](const Vec3& c) {
    double dist = 1e300;
    for (const auto& f : faces)
      dist = std::min(dist, (closest_on_triangle(c, f[0], f[1], f[2]) - c).norm());
    return dist;
  };
  Geometry ball, capsule;
  ball.type = ShapeType::Sphere;
  ball.radius = 0.1;
  capsule.type = ShapeType::Capsule;
  capsule.radius = 0.05;
  capsule.half_length = 0.08;
  int separated = 0, penetrating = 0;
  for (int t = 0; t < 80; ++t) {
    const bool is_ball = t % 2 == 0;
    const Geometry& a = is_ball ? ball : capsule;
    const Vec3 c = Vec3(u(rng), u(rng), u(rng)).normalized() * (0.3 + 0.2 * (u(rng) + 1.0));
    const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Vec3 axis = q * Vec3::UnitZ();
    // The core's distance: golden sections along the segment (points inside the hull would read
    // their nearest face's distance; such poses are skipped below).
    double lo = -a.half_length, hi = a.half_length;
    auto f = [&](double s) { return point_distance(c + s * axis); };
    constexpr double kGolden = 0.6180339887498949;
    for (int it = 0; it < 80 && hi - lo > 1e-14; ++it) {
      const double s1 = hi - kGolden * (hi - lo), s2 = lo + kGolden * (hi - lo);
      (f(s1) < f(s2) ? hi : lo) = f(s1) < f(s2) ? s2 : s1;
    }
    const Vec3 core = c + 0.5 * (lo + hi) * axis;
    const double dist = f(0.5 * (lo + hi));
    // The core outside the hull: every hull vertex on the side of its nearest face point.
    const Vec3 dir = core - [&] {
      Vec3 best = Vec3::Zero();
      double bd = 1e300;
      for (const auto& fc : faces) {
        const Vec3 p = closest_on_triangle(core, fc[0], fc[1], fc[2]);
        if ((p - core).norm() < bd) bd = (p - core).norm(), best = p;
      }
      return best;
    }();
    bool outside = dist > 1e-3;
    for (const Vec3& w : v) outside &= dir.dot(w - core) < 0.0;
    if (!outside) continue;
    ContactPoint cp;
    ASSERT_TRUE(convex_distance(place(a, {c, q}), place(hull, Pose{}), &cp));
    EXPECT_NEAR(cp.gap, dist - a.radius, 1e-9 * std::max(dist, 0.1)) << t;
    // The contact point is A's deepest point towards the hull.
    EXPECT_NEAR((cp.point - core).norm(), a.radius, 1e-9) << t;
    ++(cp.gap < 0.0 ? penetrating : separated);
  }
  EXPECT_GT(separated, 10);
  EXPECT_GT(penetrating, 5);
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// A box against the side of a long capsule (the normal perpendicular to the capsule's axis, where
// the capsule's support is its whole 6 m side): the contact point lies on A's supporting plane and
// inside the box's extent along the axis, for a box touching with a corner, an edge or a face.
TEST(ConvexPairs, BoxOnALongCapsuleTouchesWhereTheBoxIs) {
  const Geometry cap = make(ShapeType::Capsule, 0.4, 3.0, Vec3::Zero());
  const Geometry box = make(ShapeType::Box, 0.0, 0.0, Vec3(0.2, 0.2, 0.2));
  const Pose Xc{Vec3::Zero(), Quat(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitY()))};  // axis along x
  const Quat tilted(Eigen::AngleAxisd(0.3, Vec3(1.0, 2.0, 0.5).normalized()));
  struct Case {
    Vec3 centre;
    Quat q;
  };
  const Case cases[] = {{{2.0, -0.3, 0.55}, tilted},            // a corner
                        {{-2.5, 0.0, 0.59}, Quat::Identity()},  // a face, on top
                        {{1.0, 0.0, 0.58},
                         Quat(Eigen::AngleAxisd(  // an edge
                             0.25 * M_PI, Vec3::UnitX()))}};
  for (const Case& k : cases) {
    const Pose Xb{k.centre, k.q};
    ContactPoint c;
    ASSERT_TRUE(convex_distance(place(cap, Xc), place(box, Xb), &c));
    EXPECT_LT(c.gap, 0.0) << k.centre.transpose();
    EXPECT_NEAR(c.point.x(), k.centre.x(), 0.2 * std::sqrt(3.0)) << k.centre.transpose();
    EXPECT_NEAR(c.normal.dot(c.point), c.normal.dot(support(place(cap, Xc), c.normal)), 1e-9)
        << k.centre.transpose();
  }
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// A short cylinder lying on the floor against the side of the same long capsule, touching it to
// 3e-10 m (a state of humanoid100): GJK's witnesses are then too close to give a direction, and
// refining from theirs found a depth of 0.42 m along +z. The depth must be that of the best
// direction, which sampling the sphere finely gives: ~0 along the capsule's radius through the
// cylinder.
TEST(ConvexPairs, TouchingPairTakesTheBestDirectionNotTheWitnesses) {
  const Geometry cap = make(ShapeType::Capsule, 0.4, 3.0, Vec3::Zero());
  const Geometry cyl = make(ShapeType::Cylinder, 0.1, 0.05, Vec3::Zero());
  const Pose Xc{Vec3(0.0, 3.0, 0.0),
                Quat(0x1.6a09e667f3bcdp-1, 0.0, 0x1.6a09e667f3bccp-1, 0.0)};  // axis along x
  const Pose Xy{Vec3(0x1.97a92bb1dc308p-2, 0x1.3fc5a8a3b2ab5p+1, 0x1.999997da29caap-4),
                Quat(-0x1.2ad2dac709eb6p-1, 0x1.a2ee290cf3821p-5, 0x1.6917351073d34p-1,
                     -0x1.98c91a821fd15p-2)};
  const PlacedShape a = place(cap, Xc), b = place(cyl, Xy);
  double best = std::numeric_limits<double>::infinity();  // min over directions of the overlap
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 400; ++j) {
      const double th = M_PI * (i + 0.5) / 200, ph = 2.0 * M_PI * j / 400;
      const Vec3 n(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
      best = std::min(best, n.dot(support(a, n)) - n.dot(support(b, -n)));
    }
  ContactPoint c;
  ASSERT_TRUE(convex_distance(a, b, &c, 1e-3));
  EXPECT_LT(std::abs(best), 1e-3);
  EXPECT_GE(c.gap, -best - 1e-9);  // no deeper than the sampled best
  EXPECT_LT(std::abs(c.gap), 1e-5);
  EXPECT_GT(-c.normal.y(), 0.9) << c.normal.transpose();  // from the capsule's axis to the cylinder
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// Capsule-box pairs take the exact segment-box path, collide_capsule_box (closest points when the
// segment is outside the box, separating axes when inside). Checked through the pair dispatch
// against an independent computation in both roles: the reported gap is attained at the reported
// normal (closed-form supports); separated, it equals the segment-box distance minimized by
// golden section over the segment (closed-form point-box distance) minus the radius;
// penetrating, no direction of a 20000-point search and compass refinement (seeded with the
// reported normal) gives a larger signed distance.
TEST(ConvexPairs, CapsuleBoxIsExact) {
  const Geometry cap = make(ShapeType::Capsule, 0.05, 0.1, Vec3::Zero());
  const Geometry box = make(ShapeType::Box, 0.0, 0.0, Vec3(0.15, 0.1, 0.05));
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int pen = 0, sep = 0;
  for (int k = 0; k < 60; ++k) {
    const Pose Xc{Vec3(u(rng), u(rng), u(rng)) * 0.25,
                  Quat(u(rng), u(rng), u(rng), u(rng)).normalized()};
    const Pose Xb{Vec3(u(rng), u(rng), u(rng)) * 0.05,
                  Quat(u(rng), u(rng), u(rng), u(rng)).normalized()};
    for (const bool capsule_first : {true, false}) {
      const Geometry& A = capsule_first ? cap : box;
      const Geometry& B = capsule_first ? box : cap;
      const Pose& Xa = capsule_first ? Xc : Xb;
      const Pose& XB = capsule_first ? Xb : Xc;
      std::vector<ContactPoint> pts;  // the pair dispatch, either role
      collide(PairInput{&A, Xa}, PairInput{&B, XB}, 1e9, pts);
      ASSERT_EQ(pts.size(), 1u);
      const ContactPoint& c = pts[0];
      EXPECT_NEAR(c.normal.norm(), 1.0, 1e-14);
      EXPECT_NEAR(c.gap, -(h_closed(A, Xa, c.normal) + h_closed(B, XB, -c.normal)), 1e-12);
      if (c.gap > 0.0) {
        const Vec3 ax = Xc.R().col(2);
        auto dist = [&](double s) {  // point of the segment to the box
          const Vec3 p = Xb.R().transpose() * (Xc.p + s * ax - Xb.p);
          return (p - p.cwiseMax(-box.half_extents).cwiseMin(box.half_extents)).norm();
        };
        const double d = golden_min(dist, -cap.half_length, cap.half_length, 1e-12);
        EXPECT_NEAR(c.gap, d - cap.radius, 1e-9) << "pose " << k;
        ++sep;
      } else {
        const double d = maximize_on_sphere(
            [&](const Vec3& n) { return -(h_closed(A, Xa, n) + h_closed(B, XB, -n)); }, 20000,
            &c.normal);
        EXPECT_LT(d - c.gap, 1e-9) << "pose " << k;
        ++pen;
      }
    }
  }
  EXPECT_GT(pen, 10);
  EXPECT_GT(sep, 10);
}

}  // namespace
}  // namespace moreau

#include "moreau/collision/mesh_io.hpp"
#include "moreau/collision/polyhedron.hpp"

namespace moreau {
namespace {

// n random points on the ellipsoid of semi-axes `axes` (a robot link's tessellated curves).
std::vector<Vec3> ellipsoid_cloud(std::mt19937_64& rng, int n, const Vec3& axes) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> p;
  for (int k = 0; k < n; ++k)
    p.push_back(Vec3(u(rng), u(rng), u(rng)).normalized().cwiseProduct(axes));
  return p;
}

// A hull against the floor: the walk over its vertex graph from the lowest vertex gives the
// contacts of the scan over every vertex, bit for bit (the same hull without its graph), on a
// flattened hull of 400 vertices (a robot's sole, its points level to within millimetres) in
// random poses from 2 mm deep to 1.5 mm above the floor (margin 1 mm).
TEST(Manifolds, HullWalkGivesTheScansContacts) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> u(-1, 1);
  auto walked = convex_hull(ellipsoid_cloud(rng, 400, Vec3(0.12, 0.05, 0.01)), "sole");
  ASSERT_TRUE(walked);
  ASSERT_EQ((*walked)->neighbor_start.size(), (*walked)->vertices.size() + 1);
  auto scanned = std::make_shared<MeshData>(**walked);
  scanned->neighbor_start.clear();
  scanned->neighbors.clear();
  Geometry floor, gw, gs;
  floor.type = ShapeType::Plane;
  gw.type = gs.type = ShapeType::ConvexMesh;
  gw.mesh = *walked;
  gs.mesh = scanned;
  const double margin = 1e-3;
  int with_contacts = 0, several = 0;
  for (int t = 0; t < 200; ++t) {
    // Mostly level (a sole resting), some tilted.
    const double tilt = t % 4 == 0 ? 0.5 : 0.02;
    const Quat q(Eigen::AngleAxisd(tilt * u(rng), Vec3(u(rng), u(rng), 0.0).normalized()) *
                 Eigen::AngleAxisd(3.0 * u(rng), Vec3::UnitZ()));
    double lowest = 1e300;
    for (const Vec3& v : (*walked)->vertices) lowest = std::min(lowest, (q * v).z());
    const Pose X{Vec3(u(rng), u(rng), -lowest - 0.002 + 0.00175 * (u(rng) + 1.0)), q};
    std::vector<ContactPoint> a, b;
    collide_plane(place(floor, Pose{}), place(gw, X), margin, a);
    collide_plane(place(floor, Pose{}), place(gs, X), margin, b);
    ASSERT_EQ(a.size(), b.size()) << t;
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].feature, b[k].feature) << t;
      EXPECT_EQ(a[k].gap, b[k].gap) << t;
      EXPECT_EQ(a[k].point, b[k].point) << t;
    }
    with_contacts += !a.empty();
    several += a.size() >= 3;
  }
  EXPECT_GT(with_contacts, 100);
  EXPECT_GT(several, 50);
}

// Two hulls of about a hundred vertices each (the tessellated curves of a robot's STL links),
// penetrating in random poses: convex_distance's depth (EPA, then the facet walk) against the
// separating-axis test over every face normal and edge-direction pair (collide_polyhedra), an
// independent exact computation, including the pair's normal of the step before as a hint.
TEST(ConvexPairs, HullHullDepthIsTheSeparatingAxisDepth) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  auto hull_a = convex_hull(ellipsoid_cloud(rng, 120, Vec3(0.05, 0.12, 0.04)), "A");
  auto hull_b = convex_hull(ellipsoid_cloud(rng, 120, Vec3(0.08, 0.03, 0.06)), "B");
  ASSERT_TRUE(hull_a && hull_b);
  ASSERT_EQ((*hull_a)->triangle_start.size(), (*hull_a)->vertices.size() + 1);
  auto poly_a = hull_polyhedron(**hull_a), poly_b = hull_polyhedron(**hull_b);
  ASSERT_TRUE(poly_a && poly_b);
  Geometry ga, gb;
  ga.type = gb.type = ShapeType::ConvexMesh;
  ga.mesh = *hull_a;
  gb.mesh = *hull_b;
  int tested = 0;
  Vec3 hint = Vec3::Zero();
  for (int t = 0; t < 40; ++t) {
    const Pose Xa{Vec3::Zero(),
                  Quat(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()))};
    const Pose Xb{0.08 * Vec3(u(rng), u(rng), u(rng)),
                  Quat(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()))};
    std::vector<ContactPoint> sat;
    collide_polyhedra(*poly_a, Xa, *poly_b, Xb, 1.0, sat);
    ASSERT_FALSE(sat.empty());
    double depth = 1e300;
    for (const ContactPoint& c : sat) depth = std::min(depth, c.gap);
    if (depth >= 0.0) continue;  // the reference's minimum gap is the depth only when penetrating
    const Vec3* hints[2] = {nullptr, &hint};
    for (const Vec3* h : hints) {
      ContactPoint cp;
      ASSERT_TRUE(convex_distance(place(ga, Xa), place(gb, Xb), &cp, 1.0, h));
      // The reference keeps an edge pair only where it beats the best axis by 1e-6 of the
      // shapes' size: it may miss an edge axis by that much and report a depth deeper than the
      // truth by as much, never shallower.
      EXPECT_GE(cp.gap, depth - 1e-12) << t;
      EXPECT_LE(cp.gap, depth + 1e-6 * 0.12) << t;
      // The gap is the separation of the two support planes along the normal (brute force).
      ASSERT_NEAR(cp.normal.norm(), 1.0, 1e-12);
      double ha = -1e300, hb = -1e300;
      for (const Vec3& x : ga.mesh->vertices) ha = std::max(ha, cp.normal.dot(Xa * x));
      for (const Vec3& x : gb.mesh->vertices) hb = std::max(hb, -cp.normal.dot(Xb * x));
      EXPECT_NEAR(cp.gap, -(ha + hb), 1e-12) << t;
      hint = cp.normal;
    }
    ++tested;
  }
  EXPECT_GT(tested, 20);
}

// A hull pair's cached answer (HullPairCache) is taken only while B has moved against A by so
// little that its gap is within 1e-10 m of the full computation's; farther, it is recomputed.
TEST(ConvexPairs, HullPairCacheAnswersWithin1e10OfTheFullComputation) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  auto hull_a = convex_hull(ellipsoid_cloud(rng, 150, Vec3(0.06, 0.1, 0.05)), "A");
  auto hull_b = convex_hull(ellipsoid_cloud(rng, 150, Vec3(0.07, 0.04, 0.05)), "B");
  ASSERT_TRUE(hull_a && hull_b);
  Geometry ga, gb;
  ga.type = gb.type = ShapeType::ConvexMesh;
  ga.mesh = *hull_a;
  gb.mesh = *hull_b;
  int reused = 0, recomputed = 0;
  for (int t = 0; t < 30; ++t) {
    const Pose Xa{Vec3::Zero(),
                  Quat(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()))};
    const Quat qb(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()));
    // B placed along a random direction at a gap of 1e-4 m, in or out, from A.
    const Vec3 d = Vec3(u(rng), u(rng), u(rng)).normalized();
    Pose Xb{0.3 * d, qb};
    ContactPoint c0;
    ASSERT_TRUE(convex_distance(place(ga, Xa), place(gb, Xb), &c0));
    Xb.p += (1e-4 * u(rng) - c0.gap) * c0.normal;
    HullPairCache cache;
    ContactPoint c1;
    ASSERT_TRUE(convex_distance(place(ga, Xa), place(gb, Xb), &c1, 1.0, nullptr, nullptr, &cache));
    ASSERT_EQ(cache.a, &ga);
    const HullPairCache stored = cache;
    // Moves of B: translation and rotation together, then rotations about B's origin alone (the
    // cache's bound has reach |dR| for them; B's vertices lie within 0.04 to 0.07 m of it).
    const std::pair<double, double> moves[] = {{1e-13, 1e-13}, {3e-12, 3e-12}, {1e-11, 1e-11},
                                               {1e-8, 1e-8},   {1e-5, 1e-5},   {0.0, 1e-12},
                                               {0.0, 1e-9},    {0.0, 1e-6}};
    for (const auto& [dp, dth] : moves) {
      const Pose Xm{Xb.p + dp * Vec3(u(rng), u(rng), u(rng)).normalized(),
                    Quat(Eigen::AngleAxisd(dth, Vec3(u(rng), u(rng), u(rng)).normalized())) * Xb.q};
      ContactPoint full, fast;
      ASSERT_TRUE(convex_distance(place(ga, Xa), place(gb, Xm), &full, 1.0));
      cache = stored;
      ASSERT_TRUE(
          convex_distance(place(ga, Xa), place(gb, Xm), &fast, 1.0, &c1.normal, nullptr, &cache));
      EXPECT_LE(fast.gap, full.gap + 1e-12) << t << " " << dp << " " << dth;  // never overstated
      EXPECT_GE(fast.gap, full.gap - 1e-10) << t << " " << dp << " " << dth;
      if (cache.p == stored.p && cache.R == stored.R) {
        ++reused;
        EXPECT_LE(dp + 0.04 * std::sqrt(2.0) * dth, 0.5e-10) << t << " " << dp << " " << dth;
      } else {
        ++recomputed;
        EXPECT_NEAR(fast.gap, full.gap, 1e-12) << t << " " << dp << " " << dth;
      }
    }
    // The same pair with A and B swapped (the detector's order follows the poses): the cache is
    // A's, so it is recomputed, for B.
    cache = stored;
    ContactPoint swapped;
    const Vec3 flipped = -c1.normal;
    ASSERT_TRUE(
        convex_distance(place(gb, Xb), place(ga, Xa), &swapped, 1.0, &flipped, nullptr, &cache));
    EXPECT_EQ(cache.a, &gb);
    EXPECT_NEAR(swapped.gap, c1.gap, 1e-12) << t;
  }
  EXPECT_GT(reused, 30);
  EXPECT_GE(recomputed, 120);
}

// The same cache for curved and kinked shapes (a robot's cylinders against its link hulls): the
// bound |dp| + r_B |dR| holds for any convex B, r_B its farthest point from its origin.
TEST(ConvexPairs, PairCacheOfCurvedShapesAnswersWithin1e10OfTheFullComputation) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  auto hull = convex_hull(ellipsoid_cloud(rng, 150, Vec3(0.07, 0.04, 0.05)), "hull");
  ASSERT_TRUE(hull);
  Geometry cyl, cyl2, ell, box, cap, mesh;
  cyl.type = cyl2.type = ShapeType::Cylinder;
  cyl.radius = 0.03, cyl.half_length = 0.025;
  cyl2.radius = 0.05, cyl2.half_length = 0.01;
  ell.type = ShapeType::Ellipsoid;
  ell.half_extents = Vec3(0.05, 0.03, 0.04);
  box.type = ShapeType::Box;
  box.half_extents = Vec3(0.04, 0.05, 0.03);
  cap.type = ShapeType::Capsule;
  cap.radius = 0.02, cap.half_length = 0.04;
  mesh.type = ShapeType::ConvexMesh;
  mesh.mesh = *hull;
  const std::pair<const Geometry*, const Geometry*> pairs[] = {
      {&cyl, &mesh}, {&cyl, &cyl2}, {&ell, &box}, {&mesh, &cap}, {&mesh, &cyl}, {&box, &ell}};
  // B's farthest point from its origin (brute force for the hull): the cache's reach.
  double hull_reach = 0.0;
  for (const Vec3& v : mesh.mesh->vertices) hull_reach = std::max(hull_reach, v.norm());
  const double reach_of[] = {hull_reach, std::hypot(0.05, 0.01),  box.half_extents.norm(),
                             0.06,       std::hypot(0.03, 0.025), 0.05};
  int reused = 0, recomputed = 0;
  for (int t = 0; t < 36; ++t) {
    const auto [ga, gb] = pairs[t % 6];
    const Pose Xa{Vec3::Zero(),
                  Quat(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()))};
    const Quat qb(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()));
    const Vec3 d = Vec3(u(rng), u(rng), u(rng)).normalized();
    Pose Xb{0.3 * d, qb};
    ContactPoint c0;
    ASSERT_TRUE(convex_distance(place(*ga, Xa), place(*gb, Xb), &c0));
    Xb.p += (-2e-3 - c0.gap) * c0.normal;  // 2 mm deep: the sampling path on kinked pairs
    HullPairCache cache;
    ContactPoint c1;
    ASSERT_TRUE(
        convex_distance(place(*ga, Xa), place(*gb, Xb), &c1, 1.0, nullptr, nullptr, &cache));
    ASSERT_EQ(cache.a, ga);
    EXPECT_NEAR(cache.reach, reach_of[t % 6], 1e-15) << t;
    const HullPairCache stored = cache;
    const std::pair<double, double> moves[] = {{1e-13, 1e-13}, {1e-11, 1e-11}, {1e-8, 1e-8},
                                               {1e-5, 1e-5},   {0.0, 1e-12},   {0.0, 1e-6}};
    for (const auto& [dp, dth] : moves) {
      const Pose Xm{Xb.p + dp * Vec3(u(rng), u(rng), u(rng)).normalized(),
                    Quat(Eigen::AngleAxisd(dth, Vec3(u(rng), u(rng), u(rng)).normalized())) * Xb.q};
      ContactPoint full, fast;
      ASSERT_TRUE(convex_distance(place(*ga, Xa), place(*gb, Xm), &full, 1.0, &c1.normal));
      cache = stored;
      ASSERT_TRUE(
          convex_distance(place(*ga, Xa), place(*gb, Xm), &fast, 1.0, &c1.normal, nullptr, &cache));
      // The full computation of a curved pair is itself exact to about 1e-12 m.
      EXPECT_LE(fast.gap, full.gap + 1e-11) << t << " " << dp << " " << dth;  // never overstated
      EXPECT_GE(fast.gap, full.gap - 1e-10) << t << " " << dp << " " << dth;
      EXPECT_NEAR(fast.normal.norm(), 1.0, 1e-12);
      if (cache.p == stored.p && cache.R == stored.R) {
        ++reused;
        EXPECT_LE(dp + reach_of[t % 6] * std::sqrt(2.0) * dth, 0.5e-10) << t;
      } else {
        ++recomputed;
        EXPECT_NEAR(fast.gap, full.gap, 1e-12) << t << " " << dp << " " << dth;
      }
    }
  }
  EXPECT_GT(reused, 36);
  EXPECT_GE(recomputed, 100);
}

}  // namespace
}  // namespace moreau
