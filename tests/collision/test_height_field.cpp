// Height fields (docs/collision.md, "Height fields"): a flat field gives a sphere the contact of a
// plane (also on a shared edge or grid vertex: one contact, not one per triangle); a linear ramp
// gives its analytic normal and gap, also in deep penetration; a box on a flat field is supported
// by contacts with normal +z; shapes beside the field get no contacts.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {
namespace {

// nrow x ncol field over [-rx, rx] x [-ry, ry], elevation e(x) = slope * (x + rx) (0 when slope 0).
Geometry field(int nrow, int ncol, double rx, double ry, double slope, double base) {
  std::vector<double> e;
  for (int r = 0; r < nrow; ++r)
    for (int c = 0; c < ncol; ++c) e.push_back(static_cast<double>(c) / (ncol - 1));
  const double height = slope > 0.0 ? slope * 2.0 * rx : 1.0;
  auto h = make_height_field(nrow, ncol, {rx, ry, height, base},
                             slope > 0.0 ? e : std::vector<double>{}, "test field");
  EXPECT_TRUE(h.ok());
  Geometry g;
  g.name = "field";
  g.body = -1;
  g.type = ShapeType::HeightField;
  g.hfield = *h;
  return g;
}

Geometry sphere_of(double r) {
  Geometry g;
  g.name = "ball";
  g.body = 0;
  g.type = ShapeType::Sphere;
  g.radius = r;
  return g;
}

std::vector<ContactPoint> contacts(const Geometry& a, const Pose& Xa, const Geometry& b,
                                   const Pose& Xb, double margin = 1e-3) {
  std::vector<ContactPoint> out;
  collide({&a, Xa}, {&b, Xb}, margin, out);
  return out;
}

TEST(HeightField, FlatFieldIsAPlaneForASphere) {
  const Geometry hf = field(5, 5, 1.0, 1.0, 0.0, 0.1);
  Geometry plane;
  plane.type = ShapeType::Plane;
  plane.body = -1;
  const Geometry ball = sphere_of(0.1);
  // Inside a triangle, on a cell diagonal, on a cell edge, on a grid vertex (shared by 6
  // triangles); touching (gap 0), within the margin, penetrating.
  for (const Vec3& xy :
       {Vec3(0.13, -0.21, 0), Vec3(0.25, 0.25, 0), Vec3(0.5, 0.1, 0), Vec3(0.5, 0.5, 0)})
    for (double gap : {0.0, 4e-4, -2e-3}) {
      const Pose Xb{xy + Vec3(0, 0, 0.1 + gap), Quat::Identity()};
      const auto c = contacts(hf, Pose(), ball, Xb);
      const auto p = contacts(plane, Pose(), ball, Xb);
      ASSERT_EQ(p.size(), 1u);
      ASSERT_EQ(c.size(), 1u) << xy.transpose() << " gap " << gap;
      EXPECT_LE((c[0].normal - Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_NEAR(c[0].gap, gap, 1e-12);
      EXPECT_LE((c[0].point - p[0].point).norm(), 1e-12);
      // Reversed roles: the same contact seen from the ball.
      const auto r = contacts(ball, Xb, hf, Pose());
      ASSERT_EQ(r.size(), 1u);
      EXPECT_LE((r[0].normal + Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_NEAR(r[0].gap, gap, 1e-12);
    }
  // Beside the field, or above it beyond the margin: nothing.
  EXPECT_TRUE(contacts(hf, Pose(), ball, Pose{Vec3(1.5, 0, 0.05), Quat::Identity()}).empty());
  EXPECT_TRUE(contacts(hf, Pose(), ball, Pose{Vec3(0, 0, 0.2), Quat::Identity()}).empty());
}

TEST(HeightField, RampGivesItsNormalAndGap) {
  const double slope = 0.3, theta = std::atan(slope);
  const Geometry hf = field(4, 6, 1.0, 0.8, slope, 0.2);
  const Vec3 n(-std::sin(theta), 0.0, std::cos(theta));
  const Geometry ball = sphere_of(0.1);
  // A placed field (moved and turned about z) changes nothing in its own frame.
  const Pose Xh{Vec3(0.4, -0.3, 0.2), Quat(Eigen::AngleAxisd(0.7, Vec3::UnitZ()))};
  const Mat3 R = Xh.R();
  for (double x : {-0.55, 0.07, 0.4})
    for (double d : {0.1, 0.0995, 0.08, 0.02, -0.03}) {  // centre's distance from the ramp plane
      const Vec3 surface(x, 0.13, slope * (x + 1.0));
      const Pose Xb{Xh * Vec3(surface + d * n), Quat::Identity()};
      const auto c = contacts(hf, Xh, ball, Xb);
      ASSERT_EQ(c.size(), 1u) << "x " << x << " d " << d;
      EXPECT_LE((c[0].normal - R * n).norm(), 1e-9) << "x " << x << " d " << d;
      EXPECT_NEAR(c[0].gap, d - 0.1, 1e-12) << "x " << x << " d " << d;
      EXPECT_LE((c[0].point - Xh * surface).norm(), 1e-9);
    }
}

TEST(HeightField, BoxOnAFlatFieldHasUpwardContacts) {
  const Geometry hf = field(9, 9, 1.0, 1.0, 0.0, 0.1);
  Geometry box;
  box.body = 0;
  box.type = ShapeType::Box;
  box.half_extents = Vec3(0.3, 0.2, 0.1);
  const Pose Xb{Vec3(0.05, -0.1, 0.0995), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))};
  const auto c = contacts(hf, Pose(), box, Xb);
  ASSERT_GE(c.size(), 3u);
  double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
  for (const ContactPoint& p : c) {
    EXPECT_LE((p.normal - Vec3::UnitZ()).norm(), 1e-9);
    EXPECT_NEAR(p.gap, -5e-4, 1e-9);
    xmin = std::min(xmin, p.point.x()), xmax = std::max(xmax, p.point.x());
    ymin = std::min(ymin, p.point.y()), ymax = std::max(ymax, p.point.y());
  }
  // The contacts span the box's footprint (a support polygon, not one point).
  EXPECT_GT(xmax - xmin, 0.2);
  EXPECT_GT(ymax - ymin, 0.2);
}

TEST(HeightField, BoxSmallerThanACellRestsOnItsCorners) {
  const Geometry hf = field(9, 9, 1.0, 1.0, 0.0, 0.1);  // cells of 0.25 m
  Geometry box;
  box.body = 0;
  box.type = ShapeType::Box;
  box.half_extents = Vec3(0.04, 0.04, 0.03);
  // Inside the triangle (0, 0) (0.25, 0) (0.25, 0.25) of the cell at the origin.
  for (double gap : {0.0, 5e-4, -1e-3}) {
    const Pose Xb{Vec3(0.17, 0.06, 0.03 + gap), Quat::Identity()};
    const auto c = contacts(hf, Pose(), box, Xb);
    ASSERT_EQ(c.size(), 4u) << gap;
    for (const ContactPoint& p : c) {
      EXPECT_LE((p.normal - Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_NEAR(p.gap, gap, 1e-12);
      EXPECT_NEAR(std::abs(p.point.x() - 0.17), 0.04, 1e-12);
      EXPECT_NEAR(std::abs(p.point.y() - 0.06), 0.04, 1e-12);
    }
  }
}

}  // namespace
}  // namespace moreau
