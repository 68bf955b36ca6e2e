// The report's jointed primitives (Table II): pendulum, boxes-fixed, nunchuk, fourbars, chain.
#include <cmath>

#include "moreau/scenes/builtin_helpers.hpp"
#include "moreau/scenes/builtin_list.hpp"

namespace moreau::builtin {

// A box of length 2l hanging from a revolute joint about world y at the origin, released at theta0.
Result<Scene> pendulum(const SceneParams& params) {
  const std::string scene_name = "pendulum";
  MOREAU_SCENE_PARAM(theta0, "theta0", 0.3);
  MOREAU_SCENE_PARAM(l, "half_length", 0.5);
  ModelBuilder mb("pendulum");
  State s;
  const Quat q = Quat(Eigen::AngleAxisd(theta0, Vec3::UnitY()));
  const int b = add_body(mb, s, box_body("bob", 1.0, Vec3(0.025, 0.025, l)), q * Vec3(0, 0, -l), q);
  mb.add_geometry(box_geom(b, Vec3(0.025, 0.025, l)));
  mb.add_joint(
      joint_at("hinge", JointType::Revolute, -1, b, {Vec3::Zero(), axis_frame(Vec3::UnitY())}, s));
  return finish_scene(mb, s, 5.0);
}

// A 1000 kg box with a 1 kg box fixed on top; falls freely (Table II: 2 bodies, 6 rows, ratio
// 1000).
Result<Scene> boxes_fixed(const SceneParams& params) {
  const std::string scene_name = "boxes-fixed";
  MOREAU_SCENE_PARAM(ratio, "mass_ratio", 1000.0);
  ModelBuilder mb("boxes-fixed");
  State s;
  const Vec3 big(0.5, 0.5, 0.5), small(0.1, 0.1, 0.1);
  const int b0 = add_body(mb, s, box_body("heavy", ratio, big), Vec3(0, 0, 0.5));
  const int b1 = add_body(mb, s, box_body("light", 1.0, small), Vec3(0, 0, 1.1));
  mb.add_geometry(ground_plane());
  mb.add_geometry(box_geom(b0, big));
  mb.add_geometry(box_geom(b1, small));
  mb.add_joint(joint_at("weld", JointType::Fixed, b0, b1, {Vec3(0, 0, 1.0), Quat::Identity()}, s));
  return finish_scene(mb, s, 2.0);
}

// Three 0.5 m bars joined end to end by spherical joints, tumbling (Table II: 3 bodies, 6 rows).
Result<Scene> nunchuk(const SceneParams& params) {
  const std::string scene_name = "nunchuk";
  MOREAU_SCENE_PARAM(spin, "spin", 2.0);
  ModelBuilder mb("nunchuk");
  State s;
  const Vec3 half(0.25, 0.02, 0.02);
  for (int i = 0; i < 3; ++i) {
    Vec6 u = Vec6::Zero();
    u.tail<3>() = Vec3(0.0, 0.0, spin);
    u.head<3>() = Vec3(0.0, spin * (0.5 * i - 0.5), 0.0);  // rigid rotation about the middle bar
    const int b = add_body(mb, s, box_body("bar" + std::to_string(i), 1.0, half),
                           Vec3(0.5 * i - 0.5, 0, 1.0), Quat::Identity(), u);
    mb.add_geometry(box_geom(b, half));
  }
  mb.add_geometry(ground_plane());
  mb.add_joint(
      joint_at("ball0", JointType::Spherical, 0, 1, {Vec3(-0.25, 0, 1.0), Quat::Identity()}, s));
  mb.add_joint(
      joint_at("ball1", JointType::Spherical, 1, 2, {Vec3(0.25, 0, 1.0), Quat::Identity()}, s));
  return finish_scene(mb, s, 2.0);
}

// Parallelogram four-bar in the x-z plane, all hinge axes along world y (planar loop: 3 of the
// 20 revolute rows are redundant). Crank and rocker hang from the ground link, tilted by phi
// from the vertical, and swing under gravity.
static Result<Scene> fourbar(const SceneParams& params, bool fixed) {
  const std::string scene_name = fixed ? "fourbar-fixed" : "fourbar-free";
  MOREAU_SCENE_PARAM(phi, "phi", 0.5);
  MOREAU_SCENE_PARAM(torque, "torque_amplitude", 0.0);
  ModelBuilder mb(scene_name);
  State s;
  const double Lg = 1.0, Lc = 0.5, w = 0.02;
  // Crank and rocker hang down from the ground link (a stable, never singular swing).
  const Vec3 dir(std::sin(phi), 0.0, -std::cos(phi));
  const Quat tilt(Eigen::AngleAxisd(kPi - phi, Vec3::UnitY()));  // body z along dir
  const Vec3 A(0, 0, 1.0), B(Lg, 0, 1.0), C = A + Lc * dir, D = B + Lc * dir;
  const int g = add_body(mb, s, box_body("ground", 1.0, Vec3(0.5 * Lg, w, w)), 0.5 * (A + B));
  const int crank =
      add_body(mb, s, box_body("crank", 1.0, Vec3(w, w, 0.5 * Lc)), 0.5 * (A + C), tilt);
  const int coupler =
      add_body(mb, s, box_body("coupler", 1.0, Vec3(0.5 * Lg, w, w)), 0.5 * (C + D));
  const int rocker =
      add_body(mb, s, box_body("rocker", 1.0, Vec3(w, w, 0.5 * Lc)), 0.5 * (B + D), tilt);
  mb.add_geometry(box_geom(g, Vec3(0.5 * Lg, w, w)));
  mb.add_geometry(box_geom(crank, Vec3(w, w, 0.5 * Lc)));
  mb.add_geometry(box_geom(coupler, Vec3(0.5 * Lg, w, w)));
  mb.add_geometry(box_geom(rocker, Vec3(w, w, 0.5 * Lc)));
  const Quat ax = axis_frame(Vec3::UnitY());
  if (fixed) mb.add_joint(joint_at("anchor", JointType::Fixed, -1, g, s.pose(g), s));
  const int jc = mb.add_joint(joint_at("crank_hinge", JointType::Revolute, g, crank, {A, ax}, s));
  mb.add_joint(joint_at("coupler_hinge", JointType::Revolute, crank, coupler, {C, ax}, s));
  mb.add_joint(joint_at("rocker_hinge", JointType::Revolute, coupler, rocker, {D, ax}, s));
  mb.add_joint(joint_at("ground_hinge", JointType::Revolute, rocker, g, {B, ax}, s));
  // The crank hinge is the actuated DoF (Table II): a torque, zero unless torque_amplitude is set.
  DofActuator& a = mb.joint(jc).actuators[0];
  a.mode = ActuationMode::Force;
  a.amplitude = torque;  // tau(t) = torque_amplitude sin(2 pi 0.5 t)
  a.frequency = 0.5;
  return finish_scene(mb, s, 10.0);
}

Result<Scene> fourbar_fixed(const SceneParams& p) {
  return fourbar(p, true);
}
Result<Scene> fourbar_free(const SceneParams& p) {
  return fourbar(p, false);
}

// n boxes of 0.1 m hanging in a chain from the world on revolute joints about world y, released
// horizontally.
Result<Scene> chain(const SceneParams& params) {
  const std::string scene_name = "chain";
  MOREAU_SCENE_PARAM(nd, "n", 30.0);
  const int n = static_cast<int>(nd);
  if (n < 1 || n > 100000 || n != nd)
    return Error{"", 0, "scene 'chain' parameter 'n'", "an integer in [1, 100000]",
                 std::to_string(nd)};
  ModelBuilder mb("chain");
  State s;
  add_hanging_chain(mb, s, std::vector<double>(n, 0.1), true);
  return finish_scene(mb, s, 2.0);
}

}  // namespace moreau::builtin
