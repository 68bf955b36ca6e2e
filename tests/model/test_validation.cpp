// ModelBuilder rejects non-physical input with an error naming the element and the expectation.
#include <gtest/gtest.h>

#include <limits>

#include "moreau/model/model.hpp"

using namespace moreau;

namespace {
ModelBuilder two_bodies() {
  ModelBuilder mb("m");
  Body a;
  a.name = "a";
  Body b;
  b.name = "b";
  mb.add_body(a);
  mb.add_body(b);
  return mb;
}

std::string build_error(const ModelBuilder& mb) {
  Result<Model> r = mb.build();
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.error().message();
}
}  // namespace

TEST(Validation, ValidModelBuildsWithCounts) {
  ModelBuilder mb = two_bodies();
  Joint j;
  j.name = "hinge";
  j.type = JointType::Revolute;
  j.base = 0;
  j.follower = 1;
  mb.add_joint(j);
  mb.body(1).mass = 1000.0;
  Result<Model> m = mb.build();
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->joint_rows(), 5);
  EXPECT_DOUBLE_EQ(m->mass_ratio(), 1000.0);
  EXPECT_EQ(m->body_index("b"), 1);
}

TEST(Validation, NonPositiveMass) {
  ModelBuilder mb = two_bodies();
  mb.body(0).mass = 0.0;
  const std::string e = build_error(mb);
  EXPECT_NE(e.find("body 'a' mass"), std::string::npos) << e;
  EXPECT_NE(e.find("> 0"), std::string::npos) << e;
}

TEST(Validation, InertiaMustBeSymmetricPositiveAndPhysical) {
  ModelBuilder mb = two_bodies();
  mb.body(1).inertia(0, 1) = 0.5;
  EXPECT_NE(build_error(mb).find("symmetric"), std::string::npos);
  mb.body(1).inertia = Mat3::Identity();
  mb.body(1).inertia(2, 2) = -1.0;
  EXPECT_NE(build_error(mb).find("positive definite"), std::string::npos);
  mb.body(1).inertia = Vec3(1.0, 1.0, 3.0).asDiagonal();  // 1 + 1 < 3
  EXPECT_NE(build_error(mb).find("triangle inequality"), std::string::npos);
}

TEST(Validation, JointReferencesAndFrames) {
  ModelBuilder mb = two_bodies();
  Joint j;
  j.name = "knee";
  j.base = 0;
  j.follower = 5;
  mb.add_joint(j);
  EXPECT_NE(build_error(mb).find("joint 'knee' follower"), std::string::npos);
  mb.joint(0).follower = 1;
  mb.joint(0).frame_base.q = Quat(2.0, 0.0, 0.0, 0.0);
  EXPECT_NE(build_error(mb).find("unit quaternion"), std::string::npos);
  mb.joint(0).frame_base.q = Quat(std::numeric_limits<double>::quiet_NaN(), 0, 0, 0);
  EXPECT_NE(build_error(mb).find("unit quaternion"), std::string::npos);
}

TEST(Validation, LimitLowerAboveUpper) {
  ModelBuilder mb = two_bodies();
  Joint j;
  j.name = "knee";
  j.base = 0;
  j.follower = 1;
  j.limits[0].lower = 0.5;
  j.limits[0].upper = 0.1;
  mb.add_joint(j);
  const std::string e = build_error(mb);
  EXPECT_NE(e.find("joint 'knee' limit[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("lower <= upper, got 0.5 > 0.1"), std::string::npos) << e;
}

TEST(Validation, GeometrySizesAndMaterials) {
  ModelBuilder mb = two_bodies();
  Geometry g;
  g.name = "ball";
  g.body = 0;
  g.type = ShapeType::Sphere;
  g.radius = -1.0;
  mb.add_geometry(g);
  EXPECT_NE(build_error(mb).find("geometry 'ball' radius"), std::string::npos);
  Geometry ok = g;
  ok.radius = 0.1;
  ok.material.friction = -0.1;
  ModelBuilder mb2 = two_bodies();
  mb2.add_geometry(ok);
  EXPECT_NE(build_error(mb2).find("friction"), std::string::npos);
  ok.material.friction = 0.5;
  ok.material.restitution = 1.5;
  ModelBuilder mb3 = two_bodies();
  mb3.add_geometry(ok);
  EXPECT_NE(build_error(mb3).find("restitution"), std::string::npos);
}
