// URDF import: bodies, masses, inertias, joint types, axes, limits and frames of a hand-written
// file against hand-computed values; loops; bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "io/io_helpers.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

using io_test::kData;

ImportOptions opts(bool floating = false) {
  ImportOptions o;
  o.floating_base = floating;
  o.package_paths = {kData};
  return o;
}

using io_test::rot;
using io_test::rt;
using io_test::tr;

using io_test::link;

TEST(Urdf, ArmBodiesMassesInertiasAndJoints) {
  Result<ImportedModel> r = import_urdf_file(kData + "arm.urdf", opts());
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  // base is fixed to the world (static); tool (massive) and tcp (massless) are merged into hand.
  ASSERT_EQ(m.num_bodies(), 3);
  EXPECT_EQ(m.bodies()[0].name, "upper");
  EXPECT_EQ(m.bodies()[1].name, "carriage");
  EXPECT_EQ(m.bodies()[2].name, "hand");
  EXPECT_DOUBLE_EQ(m.bodies()[0].mass, 2.0);
  EXPECT_DOUBLE_EQ(m.bodies()[2].mass, 0.7);
  // upper: inertia rotated by rpy (0.1, 0.2, 0.3) into link axes: R I R^T.
  Mat3 I;
  I << 0.05, 0.001, 0, 0.001, 0.04, 0.002, 0, 0.002, 0.02;
  const Mat3 R = (rot(0.3, Vec3::UnitZ()) * rot(0.2, Vec3::UnitY()) * rot(0.1, Vec3::UnitX()))
                     .toRotationMatrix();
  EXPECT_LT((m.bodies()[0].inertia - R * I * R.transpose()).norm(), 1e-15);
  // hand + tool: CoM at 0.2 * 0.05 / 0.7 along x; inertia by parallel axes.
  const double cx = 0.2 * 0.05 / 0.7;
  const Mat3 Ih = m.bodies()[2].inertia;
  EXPECT_NEAR(Ih(0, 0), 0.0011, 1e-15);
  EXPECT_NEAR(Ih(1, 1), 0.0011 + 0.5 * cx * cx + 0.2 * (0.05 - cx) * (0.05 - cx), 1e-15);
  ASSERT_EQ(m.num_joints(), 3);
  const Joint& sh = m.joints()[0];
  EXPECT_EQ(sh.name, "shoulder");
  EXPECT_EQ(sh.type, JointType::Revolute);
  EXPECT_EQ(sh.base, -1);
  EXPECT_DOUBLE_EQ(sh.limits[0].lower, -1.0);
  EXPECT_DOUBLE_EQ(sh.limits[0].upper, 1.5);
  EXPECT_DOUBLE_EQ(sh.actuators[0].effort_limit, 20.0);
  EXPECT_DOUBLE_EQ(sh.damping[0], 0.5);
  EXPECT_DOUBLE_EQ(r->tree.links[link(*r, "upper")].max_velocity[0], 3.0);
  // World axis of the shoulder: the joint frame's x is the link-frame y axis, turned by yaw pi/2.
  EXPECT_LT((sh.frame_base.q * Vec3::UnitX() - Vec3(-1, 0, 0)).norm(), 1e-15);
  EXPECT_EQ(m.joints()[1].type, JointType::Prismatic);
  EXPECT_DOUBLE_EQ(m.joints()[1].limits[0].upper, 0.2);
  EXPECT_EQ(m.joints()[2].type, JointType::Revolute);
  EXPECT_FALSE(m.joints()[2].limits[0].enabled());  // continuous
  // Geometry: base box (world), upper cylinder, carriage sphere, hand mesh hull, tool sphere.
  ASSERT_EQ(m.geometries().size(), 5u);
  EXPECT_EQ(m.geometries()[0].body, -1);
  EXPECT_EQ(m.geometries()[1].type, ShapeType::Cylinder);
  EXPECT_DOUBLE_EQ(m.geometries()[1].half_length, 0.25);
  EXPECT_EQ(m.geometries()[3].type, ShapeType::ConvexMesh);
  EXPECT_EQ(m.geometries()[3].mesh->vertices.size(), 8u);
  for (const Vec3& v : m.geometries()[3].mesh->vertices)
    EXPECT_NEAR(v.cwiseAbs().maxCoeff(), 0.05, 1e-15);
  // The transmission element is reported, not dropped silently.
  ASSERT_FALSE(r->warnings.empty());
  EXPECT_NE(r->warnings[0].find("transmission"), std::string::npos);
}

TEST(Urdf, ForwardKinematicsMatchesHandComputedPoses) {
  Result<ImportedModel> r = import_urdf_file(kData + "arm.urdf", opts());
  ASSERT_TRUE(r.ok()) << r.error().message();
  const double qs = 0.4, qp = 0.15, qw = -0.7;
  LinkValues v(r->tree.links.size());
  v[link(*r, "upper")] = {qs};
  v[link(*r, "carriage")] = {qp};
  v[link(*r, "hand")] = {qw};
  // URDF semantics written out: child = parent * origin * motion about/along the axis.
  const Pose Xu = tr(0, 0, 0.1) * rt(rot(M_PI / 2, Vec3::UnitZ())) * rt(rot(qs, Vec3::UnitY()));
  const Pose Xc = Xu * tr(0, 0, 0.5) * tr(0, 0, qp);
  const Pose Xh = Xc * tr(0.1, 0, 0) * rt(rot(0.3, Vec3::UnitX())) * rt(rot(qw, Vec3::UnitX()));
  const Pose Xt = Xh * tr(0.1, 0, 0);
  const std::vector<Pose> X = link_world_poses(r->tree, v);
  const std::pair<const char*, Pose> expect[] = {
      {"upper", Xu}, {"carriage", Xc}, {"hand", Xh}, {"tcp", Xt}};
  for (const auto& [name, P] : expect) {
    const Pose& Y = X[link(*r, name)];
    EXPECT_LT((Y.p - P.p).norm(), 1e-12) << name;
    EXPECT_LT(Y.q.angularDistance(P.q), 1e-12) << name;
  }
  // The built state: CoM positions and the moreau joint coordinates equal the values set.
  const Model& m = r->scene.model;
  const State s = tree_state(r->tree, r->build, m, v);
  EXPECT_LT((s.r[0] - Xu * Vec3(0, 0, 0.25)).norm(), 1e-12);
  EXPECT_LT((s.r[2] - Xh * Vec3(0.2 * 0.05 / 0.7, 0, 0)).norm(), 1e-12);
  EXPECT_LT(joint_residual(m, s).lpNorm<Eigen::Infinity>(), 1e-12);
  const double want[] = {qs, qp, qw};
  for (int j = 0; j < 3; ++j) {
    double q, qd;
    joint_dof_state(m.joints()[j], s, 0, &q, &qd);
    EXPECT_NEAR(q, want[j], 1e-12) << m.joints()[j].name;
  }
}

TEST(Urdf, FloatingBaseOption) {
  Result<ImportedModel> r = import_urdf_file(kData + "arm.urdf", opts(true));
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->scene.model.num_bodies(), 4);
  EXPECT_EQ(r->scene.model.joints()[0].base, 0);
  EXPECT_LT((r->scene.initial.r[0] - Vec3(0, 0, 0.05)).norm(), 1e-15);
}

TEST(Urdf, LoopJointClosesFourBar) {
  Result<ImportedModel> r = import_urdf_file(kData + "fourbar.urdf", opts());
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  EXPECT_EQ(m.num_bodies(), 3);
  ASSERT_EQ(m.num_joints(), 4);
  EXPECT_EQ(m.joints()[3].name, "close");
  EXPECT_LT(joint_residual(m, r->scene.initial).lpNorm<Eigen::Infinity>(), 1e-12);
  // Swing: the loop stays closed (hard constraints, Baumgarte stabilization).
  Scene sc = r->scene;
  State s = sc.initial;
  for (int k = 0; k < 3; ++k)
    s.u[k].tail<3>() = Vec3(0, k == 1 ? 0.0 : 2.0, 0);  // parallelogram motion
  s.u[0].head<3>() = Vec3(0, 0, 0) + Vec3(0, 2.0, 0).cross(s.r[0] - Vec3(0, 0, 1));
  s.u[2].head<3>() = Vec3(0, 2.0, 0).cross(s.r[2] - Vec3(0.5, 0, 1));
  s.u[1].head<3>() = Vec3(0, 2.0, 0).cross(Vec3(0, 0, -0.5));
  sc.settings.solver = "direct";
  Simulator sim(m, sc.settings);
  double worst = 0.0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    worst = std::max(worst, joint_residual(m, s).lpNorm<Eigen::Infinity>());
  }
  EXPECT_LT(worst, 1e-6);
}

Error bad_urdf(const std::string& xml) {
  Result<ImportedModel> r = import_urdf_string(xml, "bad.urdf", opts());
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

const char* kLink =
    R"(<link name="%s"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>)";
std::string L(const std::string& name) {
  std::string s = kLink;
  return s.replace(s.find("%s"), 2, name);
}
std::string J(const std::string& name, const std::string& p, const std::string& c) {
  return "<joint name=\"" + name + "\" type=\"continuous\"><parent link=\"" + p +
         "\"/><child link=\"" + c + "\"/></joint>";
}

TEST(Urdf, BadInputIsAClearError) {
  Error e = bad_urdf("<robot name=\"x\">\n<link name=\"a\">\n</robot>");
  EXPECT_EQ(e.line, 2);  // tinyxml2 names the unclosed element's line
  EXPECT_NE(e.message().find("bad.urdf:2"), std::string::npos) << e.message();
  e = bad_urdf("<robot name=\"r\">" + L("a") + "\n" + J("j", "a", "nowhere") + "</robot>");
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message().find("no link 'nowhere'"), std::string::npos) << e.message();
  e = bad_urdf("<robot name=\"r\">" + L("a") + L("b") + L("c") + J("j1", "a", "b") +
               J("j2", "b", "c") + J("j3", "c", "b") + "</robot>");
  EXPECT_NE(e.message().find("parent"), std::string::npos) << e.message();
  e = bad_urdf("<robot name=\"r\">" + L("a") + L("b") + J("j1", "a", "b") + J("j2", "b", "a") +
               "</robot>");
  EXPECT_NE(e.message().find("cycle"), std::string::npos) << e.message();
  // Not positive definite; triangle inequality violated; zero mass on a moving link.
  e = bad_urdf(
      R"(<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/><inertia ixx="-0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>)" +
      J("j", "a", "b") + "</robot>");
  EXPECT_NE(e.message().find("link 'b' inertia: expected a positive definite"), std::string::npos)
      << e.message();
  e = bad_urdf(
      R"(<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.5" ixy="0" ixz="0" iyz="0"/></inertial></link>)" +
      J("j", "a", "b") + "</robot>");
  EXPECT_NE(e.message().find("triangle inequality"), std::string::npos) << e.message();
  e = bad_urdf(R"(<robot name="r"><link name="a"/>
<link name="b"/>)" +
               J("j", "a", "b") + "</robot>");
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message().find("link 'b': expected a positive mass"), std::string::npos)
      << e.message();
  e = bad_urdf(
      R"(<robot name="r"><link name="a"/><link name="b"><collision><geometry><mesh filename="package://nope/m.stl"/></geometry></collision></link><joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>)");
  EXPECT_NE(e.message().find("package://nope/m.stl"), std::string::npos) << e.message();
  e = bad_urdf(
      R"(<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="planar"><parent link="a"/><child link="b"/></joint></robot>)");
  EXPECT_NE(e.message().find("planar"), std::string::npos) << e.message();
  e = bad_urdf("<robot><link name=\"a\"/></robot>");
  EXPECT_NE(e.message().find("name"), std::string::npos) << e.message();
  e = bad_urdf("<mujoco/>");
  EXPECT_NE(e.message().find("<robot>"), std::string::npos) << e.message();
}

TEST(Urdf, SceneParamsSelectOptions) {
  Result<Scene> s = load_scene(kData + "arm.urdf", {{"floating", "1"}, {"package_path", kData}});
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->model.num_bodies(), 4);
  Result<Scene> e = load_scene(kData + "arm.urdf", {{"floting", "1"}});
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message().find("floting"), std::string::npos);
}

}  // namespace
}  // namespace moreau
