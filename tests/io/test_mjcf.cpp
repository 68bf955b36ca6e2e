// MJCF import: every supported element of a hand-written file against hand-computed bodies,
// masses, inertias (explicit and from geoms), joint types, axes, limits, frames; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>

#include "io/io_helpers.hpp"
#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/io/urdf_mjcf.hpp"

namespace moreau {
namespace {

using io_test::kData;
constexpr double kDeg = M_PI / 180.0;

using io_test::rot;
using io_test::rt;
using io_test::tr;
// MuJoCo's hinge: rotation about the axis through the anchor, in the body frame.
Pose hinge(const Vec3& anchor, const Vec3& axis, double q) {
  return Pose{anchor, Quat::Identity()} * rt(rot(q, axis)) * Pose{-anchor, Quat::Identity()};
}

using io_test::link;

Result<ImportedModel> robot() {
  return import_mjcf_file(kData + "robot.xml");
}

TEST(Mjcf, BodiesMassesAndInertias) {
  Result<ImportedModel> r = robot();
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  EXPECT_EQ(r->scene.settings.dt, 0.002);
  EXPECT_EQ(m.gravity(), Vec3(0, 0, -9.8));
  // base is welded to the world: static geometry, no body.
  ASSERT_EQ(m.num_bodies(), 6);
  const char* names[] = {"link1", "link2", "link3", "link4", "ball", "swivel"};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(m.bodies()[i].name, names[i]);
  // link1: <inertial> with fullinertia (ixx iyy izz ixy ixz iyz) wins over the capsule (auto).
  Mat3 I1;
  I1 << 0.05, 0.001, 0, 0.001, 0.04, 0.002, 0, 0.002, 0.02;
  EXPECT_DOUBLE_EQ(m.bodies()[0].mass, 2.0);
  EXPECT_LT((m.bodies()[0].inertia - I1).norm(), 1e-15);
  // link2: from its cylinder with the class 'heavy' density 2000.
  const double mc = 2000.0 * M_PI * 0.05 * 0.05 * 0.2;
  EXPECT_NEAR(m.bodies()[1].mass, mc, 1e-12);
  EXPECT_NEAR(m.bodies()[1].inertia(0, 0), mc * (3 * 0.05 * 0.05 + 0.2 * 0.2) / 12.0, 1e-15);
  EXPECT_NEAR(m.bodies()[1].inertia(2, 2), 0.5 * mc * 0.05 * 0.05, 1e-15);
  // link3: diaginertia turned by quat (45 deg about z): Ixx = Iyy = (0.01 + 0.02) / 2,
  // Ixy = cos sin (0.01 - 0.02) = -0.005.
  EXPECT_NEAR(m.bodies()[2].inertia(0, 0), 0.015, 1e-12);
  EXPECT_NEAR(m.bodies()[2].inertia(0, 1), -0.005, 1e-12);
  EXPECT_NEAR(m.bodies()[2].inertia(2, 2), 0.015, 1e-12);
  // link4: ellipsoid (class heavier inherits density 2000) + mesh of explicit mass 0.3.
  const double me = 2000.0 * 4.0 / 3.0 * M_PI * 0.05 * 0.06 * 0.07;
  EXPECT_NEAR(m.bodies()[3].mass, me + 0.3, 1e-12);
  // ball: sphere of mass 1; swivel: box (500 x 0.008) + cube mesh hull (500 x 0.2^3).
  EXPECT_DOUBLE_EQ(m.bodies()[4].mass, 1.0);
  EXPECT_NEAR(m.bodies()[4].inertia(1, 1), 0.4 * 0.01, 1e-15);
  EXPECT_NEAR(m.bodies()[5].mass, 8.0, 1e-12);
  // swivel CoM between box (0) and cube (z = -0.2): -0.1; inertia about x by parallel axes.
  const double Ib = 4.0 / 3.0 * (0.01 + 0.01);
  EXPECT_NEAR(m.bodies()[5].inertia(0, 0), 2 * Ib + 2 * 4.0 * 0.01, 1e-12);
  EXPECT_NEAR(m.total_mass(), 2.0 + mc + 1.0 + me + 0.3 + 1.0 + 8.0, 1e-12);
}

TEST(Mjcf, GeomsJointsLimitsActuators) {
  Result<ImportedModel> r = robot();
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  // World: floor plane, base box (static, at z = 1).
  EXPECT_EQ(m.geometries()[0].type, ShapeType::Plane);
  EXPECT_EQ(m.geometries()[1].body, -1);
  EXPECT_LT((m.geometries()[1].pose.p - Vec3(0, 0, 1)).norm(), 1e-15);
  const Geometry& rod = m.geometries()[2];  // fromto capsule: half length 0.2
  EXPECT_EQ(rod.type, ShapeType::Capsule);
  EXPECT_DOUBLE_EQ(rod.half_length, 0.2);
  EXPECT_DOUBLE_EQ(rod.radius, 0.03);
  EXPECT_DOUBLE_EQ(rod.material.friction, 0.8);
  const int egg = 5;
  EXPECT_EQ(m.geometries()[egg].name, "egg");
  EXPECT_EQ(m.geometries()[egg].group, 2u);
  EXPECT_EQ(m.geometries()[egg].mask, 3u);
  ASSERT_EQ(m.num_joints(), 5);
  const Joint& j0 = m.joints()[0];
  EXPECT_EQ(j0.type, JointType::Revolute);
  EXPECT_NEAR(j0.limits[0].lower, -90 * kDeg, 1e-15);
  EXPECT_DOUBLE_EQ(j0.damping[0], 0.5);
  // Hinge axis (body y) in the world: link1 is turned 90 deg about z (eulerseq zyx), so -x.
  EXPECT_LT((j0.frame_base.q * Vec3::UnitX() - Vec3(-1, 0, 0)).norm(), 1e-12);
  // Motor gear 2, ctrl 0.5 from the keyframe: a constant torque 1, limited to 2 (ctrlrange).
  EXPECT_EQ(j0.actuators[0].mode, ActuationMode::Force);
  EXPECT_DOUBLE_EQ(j0.actuators[0].force, 1.0);
  const Joint& j1 = m.joints()[1];
  EXPECT_EQ(j1.type, JointType::Cylindrical);
  EXPECT_DOUBLE_EQ(j1.limits[0].upper, 0.1);  // slide
  EXPECT_FALSE(j1.limits[1].enabled());       // hinge without range
  EXPECT_EQ(j1.actuators[1].mode, ActuationMode::Position);
  EXPECT_DOUBLE_EQ(j1.actuators[1].kp, 10.0);
  EXPECT_DOUBLE_EQ(j1.actuators[1].target, 0.2);
  EXPECT_EQ(j1.actuators[0].mode, ActuationMode::Velocity);
  EXPECT_DOUBLE_EQ(j1.actuators[0].kd, 3.0);
  EXPECT_DOUBLE_EQ(j1.damping[0], 0.1);  // from the default class
  const Joint& j2 = m.joints()[2];
  EXPECT_EQ(j2.type, JointType::Universal);
  EXPECT_NEAR(j2.limits[1].upper, 45 * kDeg, 1e-15);
  EXPECT_EQ(m.joints()[3].type, JointType::Sequence);  // three hinges: exactly their product
  EXPECT_NEAR(m.joints()[3].limits[2].lower, -30 * kDeg, 1e-15);
  EXPECT_EQ(m.joints()[4].type, JointType::Spherical);
  // Unsupported elements are named in warnings.
  std::string all;
  for (const std::string& w : r->warnings) all += w + "\n";
  for (const char* tag : {"<size>", "<sensor>", "<light>", "<site>", "<asset><texture>"})
    EXPECT_NE(all.find(tag), std::string::npos) << tag << "\n" << all;
}

TEST(Mjcf, ForwardKinematicsMatchesHandComputedPoses) {
  Result<ImportedModel> r = robot();
  ASSERT_TRUE(r.ok()) << r.error().message();
  const double q1 = 0.3, d2 = 0.05, q2 = -0.4, u1 = 0.2, u2 = -0.1;
  // The keyframe holds exactly these values (b1..b3 = 0); the initial state is their FK.
  const Pose X1 = tr(0, 0, 1) * tr(0, 0, -0.1) * rt(rot(90 * kDeg, Vec3::UnitZ())) *
                  hinge(Vec3::Zero(), Vec3::UnitY(), q1);
  const Pose X2 = X1 * tr(0, 0, -0.4) * rt(rot(30 * kDeg, Vec3::UnitX())) * tr(0, 0, d2) *
                  rt(rot(q2, Vec3::UnitZ()));
  Mat3 Rxy;
  Rxy << 0, -1, 0, 1, 0, 0, 0, 0, 1;  // xyaxes "0 1 0 -1 0 0": columns x, y, x cross y
  const Vec3 a(0, 0, 0.05);
  const Pose X3 = X2 * tr(0, 0, -0.2) * rt(Quat(Rxy)) * hinge(a, Vec3::UnitX(), u1) *
                  hinge(a, Vec3::UnitY(), u2);
  const Pose X4 =
      X3 * tr(0, 0, -0.2) * rt(Quat::FromTwoVectors(Vec3::UnitZ(), Vec3(0, 1, 1).normalized()));
  const Model& m = r->scene.model;
  const State& s = r->scene.initial;
  LinkValues v(r->tree.links.size());
  v[link(*r, "link1")] = {q1};
  v[link(*r, "link2")] = {d2, q2};
  v[link(*r, "link3")] = {u1, u2};
  const std::vector<Pose> X = link_world_poses(r->tree, v);
  const std::pair<const char*, Pose> expect[] = {
      {"link1", X1}, {"link2", X2}, {"link3", X3}, {"link4", X4}};
  for (const auto& [name, P] : expect) {
    const int l = link(*r, name);
    EXPECT_LT((X[l].p - P.p).norm(), 1e-12) << name;
    EXPECT_LT(X[l].q.angularDistance(P.q), 1e-12) << name;
    const int b = r->build.body_of_link[l];
    const Pose W = s.pose(b) * r->build.link_in_body[l];  // link frame from the built state
    EXPECT_LT((W.p - P.p).norm(), 1e-12) << name;
    EXPECT_LT(W.q.angularDistance(P.q), 1e-12) << name;
  }
  EXPECT_LT((s.r[0] - X1 * Vec3(0, 0, -0.2)).norm(), 1e-12);  // inertial pos folded into the body
  EXPECT_LT((s.r[2] - X3 * Vec3(0, 0, -0.1)).norm(), 1e-12);
  EXPECT_LT((s.r[4] - Vec3(1, 0, 0.5)).norm(), 1e-15);  // free joint qpos
  EXPECT_LT(joint_residual(m, s).lpNorm<Eigen::Infinity>(), 1e-12);
  // moreau's joint coordinates equal MuJoCo's qpos: revolute, cylindrical (slide, hinge),
  // universal.
  const std::pair<int, std::vector<double>> coords[] = {{0, {q1}}, {1, {d2, q2}}, {2, {u1, u2}}};
  for (const auto& [jn, want] : coords)
    for (size_t k = 0; k < want.size(); ++k) {
      double q, qd;
      joint_dof_state(m.joints()[jn], s, static_cast<int>(k), &q, &qd);
      EXPECT_NEAR(q, want[k], 1e-12) << m.joints()[jn].name << " dof " << k;
    }
}

Error bad(const std::string& xml) {
  Result<ImportedModel> r = import_mjcf_string(xml, "bad.xml", kData);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

void expect_in(const Error& e, const std::string& what, int line = -1) {
  EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
  if (line >= 0) {
    EXPECT_EQ(e.line, line) << e.message();
  }
}

TEST(Mjcf, BadInputIsAClearError) {
  expect_in(bad("<mujoco>\n<worldbody>\n</mujoco>"), "well-formed XML", 2);
  expect_in(bad("<robot/>"), "<mujoco>");
  const std::string body = "<mujoco><worldbody><body name=\"b\">\n";
  expect_in(bad(body + "<joint type=\"hinge\"/><inertial mass=\"1\" diaginertia=\"1 1 "
                       "5\"/></body></worldbody></mujoco>"),
            "triangle inequality");
  expect_in(bad(body + "<joint type=\"hinge\"/><inertial mass=\"1\" diaginertia=\"1 -1 "
                       "1\"/></body></worldbody></mujoco>"),
            "positive definite");
  expect_in(bad(body + "<joint type=\"hinge\"/></body></worldbody></mujoco>"),
            "body 'b': expected a positive mass", 1);
  expect_in(
      bad(body +
          "<joint type=\"hinge\"/><geom type=\"mesh\" mesh=\"nope\"/></body></worldbody></mujoco>"),
      "mesh: expected the name of an <asset><mesh>", 2);
  expect_in(bad("<mujoco><asset><mesh file=\"missing.stl\"/></asset></mujoco>"), "missing.stl");
  expect_in(bad(body + "<joint axis=\"1 0 0\"/><joint axis=\"-1 0 0\"/><geom "
                       "size=\"0.1\"/></body></worldbody></mujoco>"),
            "a singular sequence");
  expect_in(bad(body + "<joint range=\"1\"/><geom size=\"0.1\"/></body></worldbody></mujoco>"),
            "range: expected 2 numbers");
  expect_in(bad(body + "<joint/><geom size=\"nan\"/></body></worldbody></mujoco>"),
            "finite numbers");
  expect_in(bad(body + "<joint/><geom size=\"0.1\" class=\"x\"/></body></worldbody></mujoco>"),
            "default class");
  expect_in(
      bad("<mujoco><worldbody><body name=\"b\"><joint/><geom size=\"0.1\"/></body></worldbody>"
          "<equality><connect body1=\"b\" body2=\"ghost\" anchor=\"0 0 0\"/></equality></mujoco>"),
      "'ghost'");
  expect_in(bad("<mujoco><worldbody><body name=\"b\"><joint name=\"j\"/><geom "
                "size=\"0.1\"/></body></worldbody>"
                "<actuator><motor joint=\"k\"/></actuator></mujoco>"),
            "the name of a joint");
  expect_in(
      bad("<mujoco><worldbody><body name=\"b\"><joint/><geom size=\"0.1\"/></body></worldbody>"
          "<keyframe><key qpos=\"1 2\"/></keyframe></mujoco>"),
      "qpos: expected 1 numbers");
}

// MuJoCo re-centres a mesh on its centroid and turns it to its principal axes, and moves the geom's
// frame to match: the hull's vertices stay where the file puts them, in the body frame, and the
// mass derived from the mesh sits at the solid's centroid.
TEST(Mjcf, MeshHullStaysWhereTheFilePutsIt) {
  // A 0.2 x 0.6 x 0.1 box from (1, 2, 3), long along y: centroid and axes both off the file frame.
  const Vec3 lo(1.0, 2.0, 3.0), hi(1.2, 2.6, 3.1);
  const std::string obj = testing::TempDir() + "moreau_offset_box.obj";
  {
    std::ofstream f(obj);
    for (int k = 0; k < 8; ++k)
      f << "v " << ((k & 1) ? hi.x() : lo.x()) << ' ' << ((k & 2) ? hi.y() : lo.y()) << ' '
        << ((k & 4) ? hi.z() : lo.z()) << '\n';
    for (const char* face : {"1 3 4 2", "5 6 8 7", "1 2 6 5", "3 7 8 4", "1 5 7 3", "2 4 8 6"})
      f << "f " << face << '\n';
  }
  Result<ImportedModel> r = import_mjcf_string(
      "<mujoco><asset><mesh name=\"m\" file=\"" + obj +
          "\"/></asset><worldbody><body name=\"b\" pos=\"0.5 0 0\" euler=\"0 0 90\">"
          "<freejoint/><geom type=\"mesh\" mesh=\"m\" pos=\"0 0 1\" density=\"1000\"/>"
          "</body><body name=\"c\"><freejoint/><geom type=\"mesh\" mesh=\"m\" pos=\"0 0 -2\" "
          "euler=\"90 0 0\" density=\"500\"/></body></worldbody></mujoco>",
      kData + "offset_mesh.xml", kData);
  std::remove(obj.c_str());
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  ASSERT_EQ(m.num_bodies(), 2);
  EXPECT_NEAR(m.bodies()[0].mass, 1000.0 * 0.2 * 0.6 * 0.1, 1e-4);
  EXPECT_NEAR(m.bodies()[1].mass, 500.0 * 0.2 * 0.6 * 0.1, 1e-4);
  // The body frame: pos (0.5, 0, 0), 90 deg about z; the geom 1 m up in it.
  const Pose body{Vec3(0.5, 0, 0), rot(90 * kDeg, Vec3::UnitZ())};
  const Pose geom_in_body = body * tr(0, 0, 1);
  const Vec3 centroid = geom_in_body * (0.5 * (lo + hi));
  const Pose com = r->scene.initial.pose(0);
  EXPECT_LT((com.p - centroid).norm(), 1e-6);
  const Geometry& g = m.geometries()[m.body_geometries(0).at(0)];
  ASSERT_EQ(g.type, ShapeType::ConvexMesh);
  // Every hull vertex, placed by the body's CoM frame and the geom's pose, is one of the file's
  // (to the mesh loader's single precision).
  ASSERT_EQ(g.mesh->vertices.size(), 8u);
  for (const Vec3& v : g.mesh->vertices) {
    const Vec3 x = geom_in_body.inverse() * (com * (g.pose * v));
    for (int d = 0; d < 3; ++d)
      EXPECT_TRUE(std::abs(x[d] - lo[d]) < 1e-6 || std::abs(x[d] - hi[d]) < 1e-6) << x.transpose();
  }
  // A second geom of the same asset, placed otherwise: the same hull (loaded once), placed by its
  // own frame.
  const Pose geom_c = tr(0, 0, -2) * Pose{Vec3::Zero(), rot(90 * kDeg, Vec3::UnitX())};
  const Pose com_c = r->scene.initial.pose(1);
  EXPECT_LT((com_c.p - geom_c * (0.5 * (lo + hi))).norm(), 1e-6);
  const Geometry& gc = m.geometries()[m.body_geometries(1).at(0)];
  EXPECT_EQ(gc.mesh, g.mesh);
  for (const Vec3& v : gc.mesh->vertices) {
    const Vec3 x = geom_c.inverse() * (com_c * (gc.pose * v));
    for (int d = 0; d < 3; ++d)
      EXPECT_TRUE(std::abs(x[d] - lo[d]) < 1e-6 || std::abs(x[d] - hi[d]) < 1e-6) << x.transpose();
  }
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// <contact><exclude>: two overlapping balls on free joints, one of them resting on the floor, and
// a ball welded to the world (a static body of its own in MuJoCo) overlapping the second. An
// exclusion removes the contacts of its two bodies' geometries and no others (the world's own
// geometries for "world"; the welded ball's alone for its body); it survives the scene's JSON
// round trip and the model's rebuild when joints are servoed; a body that does not exist is an
// error naming the element.
TEST(Mjcf, ContactExcludeKeepsTwoBodiesFromColliding) {
  // Geometries: 0 the floor, 1 the welded ball, 2 ball a, 3 ball b.
  auto load = [](const std::string& contact, const ImportOptions& opt = {}) {
    return import_mjcf_string(
        "<mujoco><worldbody><geom name=\"floor\" type=\"plane\" size=\"1 1 0.1\"/>"
        "<body name=\"post\" pos=\"0.3 0 0.1\"><geom size=\"0.1\"/></body>"
        "<body name=\"a\" pos=\"0 0 0.1\"><freejoint/><geom size=\"0.1\"/></body>"
        "<body name=\"b\" pos=\"0.15 0 0.1\"><freejoint/><geom size=\"0.1\"/></body>"
        "</worldbody>" +
            contact + "</mujoco>",
        kData + "exclude.xml", kData, opt);
  };
  using Pairs = std::set<std::pair<int, int>>;
  // Contacts per geometry pair of the scene's initial state.
  auto pairs = [](const Scene& sc) {
    CollisionDetector cd(sc.model);
    Pairs out;
    for (const Contact& c : cd.detect(sc.initial, sc.settings.collision))
      out.insert({std::min(c.geom[0], c.geom[1]), std::max(c.geom[0], c.geom[1])});
    return out;
  };
  Result<ImportedModel> none = load("");
  ASSERT_TRUE(none.ok()) << none.error().message();
  EXPECT_EQ(pairs(none->scene), (Pairs{{0, 2}, {0, 3}, {1, 3}, {2, 3}}));
  Result<ImportedModel> ab = load("<contact><exclude body1=\"b\" body2=\"a\"/></contact>");
  ASSERT_TRUE(ab.ok()) << ab.error().message();
  EXPECT_EQ(ab->scene.model.collision_exclusions(), (std::vector<std::pair<int, int>>{{2, 3}}));
  EXPECT_EQ(pairs(ab->scene), (Pairs{{0, 2}, {0, 3}, {1, 3}}));
  // The world's own geometry (the floor) and the welded ball are excluded separately.
  Result<ImportedModel> world = load(
      "<contact><exclude body1=\"a\" body2=\"world\"/><exclude body1=\"post\" body2=\"b\"/>"
      "</contact>");
  ASSERT_TRUE(world.ok()) << world.error().message();
  EXPECT_EQ(pairs(world->scene), (Pairs{{0, 3}, {2, 3}}));
  // The JSON scene carries the exclusions as geometry index pairs.
  const std::string json = scene_to_json(world->scene);
  EXPECT_NE(json.find("collision_exclusions"), std::string::npos);
  Result<Scene> back = parse_scene_json(json, "exclude.json");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->model.collision_exclusions(), world->scene.model.collision_exclusions());
  EXPECT_EQ(pairs(*back), (Pairs{{0, 3}, {2, 3}}));
  // Servoing the joints rebuilds the model: the exclusions stay.
  ImportOptions servo;
  servo.servo_kp = 100.0;
  Result<ImportedModel> servoed =
      load("<contact><exclude body1=\"a\" body2=\"b\"/></contact>", servo);
  ASSERT_TRUE(servoed.ok()) << servoed.error().message();
  EXPECT_EQ(servoed->scene.model.collision_exclusions(),
            (std::vector<std::pair<int, int>>{{2, 3}}));
  Result<ImportedModel> bad = load("<contact><exclude body1=\"a\" body2=\"c\"/></contact>");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("<exclude> body2"), std::string::npos)
      << bad.error().message();
  EXPECT_NE(bad.error().message().find("'c'"), std::string::npos) << bad.error().message();
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// <actuator><general>, MuJoCo's force = gain ctrl + b0 + b1 (gear q) + b2 (gear qdot) times the
// gear on the joint: with biasprm = (0, -kp, -kv) it is MuJoCo's own definition of <position kp
// kv> and gives the same servo; with biastype "none" a force; with (b0, 0, -kv) a velocity servo.
// Activation dynamics are reported and skipped, the actuator keeping its place in the keyframe's
// ctrl. A joint's ref shifts the servo's target (moreau's q counts from the reference pose).
TEST(Mjcf, GeneralActuatorsAreTheirServosAndForces) {
  std::string bodies;
  for (int k = 0; k < 6; ++k)
    bodies += "<body name=\"b" + std::to_string(k) + "\" pos=\"" + std::to_string(k) +
              " 0 0\"><joint name=\"j" + std::to_string(k) + "\" axis=\"0 1 0\"" +
              (k == 5 ? " ref=\"20\"" : "") + "/><geom size=\"0.1\"/></body>";
  Result<ImportedModel> r = import_mjcf_string(
      "<mujoco><worldbody>" + bodies +
          "</worldbody><actuator>"
          "<position joint=\"j0\" kp=\"50\" kv=\"2\" gear=\"2\"/>"
          "<general joint=\"j1\" gainprm=\"50\" biasprm=\"0 -50 -2\" biastype=\"affine\" "
          "gear=\"2\"/>"
          "<general joint=\"j4\" gainprm=\"1\" dyntype=\"filter\" dynprm=\"0.1\"/>"
          "<general joint=\"j2\" gainprm=\"3\" gear=\"2\"/>"
          "<general joint=\"j3\" gainprm=\"8\" biasprm=\"1 0 -4\" biastype=\"affine\"/>"
          "<position joint=\"j5\" kp=\"10\"/>"
          "</actuator><keyframe><key ctrl=\"0.6 0.6 1 0.5 0.25 0.5\"/></keyframe></mujoco>",
      kData + "general.xml", kData);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Model& m = r->scene.model;
  auto act = [&](const char* name) { return m.joints()[m.joint_index(name)].actuators[0]; };
  // <position>: tau = kp g^2 (ctrl/g - q) - kv g^2 qdot, kp g^2 = 200, kv g^2 = 8, target 0.3.
  for (const char* j : {"j0", "j1"}) {
    const DofActuator a = act(j);
    EXPECT_EQ(a.mode, ActuationMode::Position) << j;
    EXPECT_NEAR(a.kp, 200.0, 1e-12) << j;
    EXPECT_NEAR(a.kd, 8.0, 1e-12) << j;
    EXPECT_NEAR(a.target, 0.3, 1e-12) << j;
  }
  EXPECT_EQ(act("j2").mode, ActuationMode::Force);
  EXPECT_NEAR(act("j2").force, 2.0 * 3.0 * 0.5, 1e-12);
  // tau = 8 ctrl + 1 - 4 qdot = 4 (0.75 - qdot): a velocity servo to 0.75 rad/s.
  EXPECT_EQ(act("j3").mode, ActuationMode::Velocity);
  EXPECT_NEAR(act("j3").kd, 4.0, 1e-12);
  EXPECT_NEAR(act("j3").target, 0.75, 1e-12);
  EXPECT_EQ(act("j4").mode, ActuationMode::Passive);
  // ref 20 degrees: the target 0.5 rad of MuJoCo's qpos is 0.5 - 20 deg of moreau's q.
  EXPECT_NEAR(act("j5").target, 0.5 - 20.0 * kDeg, 1e-12);
  bool reported = false;
  for (const std::string& w : r->warnings) reported |= w.find("<general>") != std::string::npos;
  EXPECT_TRUE(reported);
}

}  // namespace
}  // namespace moreau
