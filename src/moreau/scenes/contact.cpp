// Contact scenes: box-on-plane, ball-drop, box-incline, box-stack, sphere-pile.
// Settings shared by all: dt = 1 ms, solver "pgs", collision margin 1 mm, penetration margin
// delta = 0, beta_contact = 0.2 (docs/collision.md).
#include <cmath>
#include <cstdint>

#include "moreau/scenes/builtin_helpers.hpp"
#include "moreau/scenes/builtin_list.hpp"

namespace moreau::builtin {

namespace {

SimSettings contact_settings() {
  SimSettings s;
  s.dt = 1e-3;
  s.solver = "admm-ncp-sa";
  s.solver_settings.max_iters = 500;
  s.solver_settings.tol = 1e-10;
  s.collision.margin = 1e-3;
  s.dynamics.penetration_margin = 0.0;
  s.dynamics.beta_contact = 0.2;
  return s;
}

Result<Scene> finish(ModelBuilder& mb, State s, double duration,
                     SimSettings settings = contact_settings()) {
  return finish_scene(mb, std::move(s), duration, std::move(settings));
}

// `g` with friction mu, restitution e and, when given, a name.
Geometry with_material(Geometry g, double mu, double e, std::string name = {}) {
  if (!name.empty()) g.name = std::move(name);
  g.material.friction = mu;
  g.material.restitution = e;
  return g;
}

// A world half-space whose outward normal is `normal`, through `point`.
Geometry wall(const Vec3& point, const Vec3& normal, double mu) {
  Geometry g = ground_plane(mu, 0.0);
  g.name = "wall";
  g.pose = {point, Quat::FromTwoVectors(Vec3::UnitZ(), normal.normalized())};
  return g;
}

Result<int> count_param(const SceneParams& params, const std::string& scene_name, const char* key,
                        double fallback, int hi) {
  MOREAU_SCENE_PARAM(nd, key, fallback);
  const int n = static_cast<int>(nd);
  if (n < 1 || n > hi || n != nd)
    return Error{"", 0, "scene '" + scene_name + "' parameter '" + key + "'",
                 "an integer in [1, " + std::to_string(hi) + "]", std::to_string(nd)};
  return n;
}
}  // namespace

// One 0.2 m cube (1 kg) dropped from `drop` (default 1 cm) onto the ground; friction `mu`.
Result<Scene> box_on_plane(const SceneParams& params) {
  const std::string scene_name = "box-on-plane";
  MOREAU_SCENE_PARAM(drop, "drop", 0.01);
  MOREAU_SCENE_PARAM(mu, "mu", 0.5);
  ModelBuilder mb(scene_name);
  State s;
  const Vec3 h(0.1, 0.1, 0.1);
  const int b = add_body(mb, s, box_body("box", 1.0, h), Vec3(0, 0, h.z() + drop));
  mb.add_geometry(with_material(ground_plane(), mu, 0.0));
  mb.add_geometry(with_material(box_geom(b, h), mu, 0.0, "box"));
  return finish(mb, s, 1.0);
}

// A 0.1 m sphere (1 kg) dropped from height `height` (centre, default 1 m); restitution e = 0.5.
Result<Scene> ball_drop(const SceneParams& params) {
  const std::string scene_name = "ball-drop";
  MOREAU_SCENE_PARAM(height, "height", 1.0);
  MOREAU_SCENE_PARAM(e, "restitution", 0.5);
  ModelBuilder mb(scene_name);
  State s;
  const double r = 0.1;
  const int b = add_body(mb, s, sphere_body("ball", 1.0, r), Vec3(0, 0, height));
  mb.add_geometry(with_material(ground_plane(), 0.5, e));
  mb.add_geometry(with_material(sphere_geom(b, r), 0.5, e, "ball"));
  return finish(mb, s, 2.0);
}

// A 0.2 m cube at rest on a plane tilted by `angle` degrees (default 20) about world y, friction
// mu (default 0.5: tan 20 deg = 0.364 < mu, it sticks; mu = 0.3 slides with g (sin a - mu cos a)).
Result<Scene> box_incline(const SceneParams& params) {
  const std::string scene_name = "box-incline";
  MOREAU_SCENE_PARAM(angle, "angle", 20.0);
  MOREAU_SCENE_PARAM(mu, "mu", 0.5);
  ModelBuilder mb(scene_name);
  State s;
  const Vec3 h(0.1, 0.1, 0.1);
  const Quat tilt(Eigen::AngleAxisd(angle * kPi / 180.0, Vec3::UnitY()));
  const int b = add_body(mb, s, box_body("box", 1.0, h), tilt * Vec3(0, 0, h.z()), tilt);
  Geometry plane = with_material(ground_plane(), mu, 0.0);
  plane.name = "incline";
  plane.pose.q = tilt;
  mb.add_geometry(plane);
  mb.add_geometry(with_material(box_geom(b, h), mu, 0.0, "box"));
  return finish(mb, s, 2.0);
}

// A stack of n (default 5) 0.2 m cubes (1 kg) resting on each other on the ground.
Result<Scene> box_stack(const SceneParams& params) {
  const std::string scene_name = "box-stack";
  Result<int> n = count_param(params, scene_name, "n", 5.0, 1000);
  if (!n) return n.error();
  MOREAU_SCENE_PARAM(mu, "mu", 0.5);
  ModelBuilder mb(scene_name);
  State s;
  const Vec3 h(0.1, 0.1, 0.1);
  mb.add_geometry(with_material(ground_plane(), mu, 0.0));
  for (int i = 0; i < *n; ++i) {
    const int b = add_body(mb, s, box_body("box" + std::to_string(i), 1.0, h),
                           Vec3(0, 0, h.z() * (2 * i + 1)));
    mb.add_geometry(with_material(box_geom(b, h), mu, 0.0, "box" + std::to_string(i)));
  }
  SimSettings st = contact_settings();
  st.solver_settings.tol = 1e-8;  // PGS converges slowly on stacks: 1e-8 m/s keeps them standing
  st.solver_settings.max_iters = 200;
  return finish(mb, s, 10.0, st);
}

// n spheres (default 300, radius 5 cm, 0.1 kg) on a jittered lattice, falling into a 1 m x 1 m
// container (ground and four walls, all half-spaces).
Result<Scene> sphere_pile(const SceneParams& params) {
  const std::string scene_name = "sphere-pile";
  Result<int> n = count_param(params, scene_name, "n", 300.0, 1000000);
  if (!n) return n.error();
  MOREAU_SCENE_PARAM(mu, "mu", 0.3);
  ModelBuilder mb(scene_name);
  State s;
  const double r = 0.05, W = 0.5, spacing = 0.12;
  const int row = static_cast<int>(2.0 * W / spacing);
  mb.add_geometry(with_material(ground_plane(), mu, 0.0));
  mb.add_geometry(wall(Vec3(-W, 0, 0), Vec3::UnitX(), mu));
  mb.add_geometry(wall(Vec3(W, 0, 0), -Vec3::UnitX(), mu));
  mb.add_geometry(wall(Vec3(0, -W, 0), Vec3::UnitY(), mu));
  mb.add_geometry(wall(Vec3(0, W, 0), -Vec3::UnitY(), mu));
  uint64_t seed = 0x9E3779B97F4A7C15ull;  // fixed: the scene is deterministic
  auto jitter = [&seed]() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (static_cast<double>(seed >> 11) / 9007199254740992.0 - 0.5) * 0.01;
  };
  for (int i = 0; i < *n; ++i) {
    const int layer = i / (row * row), k = i % (row * row);
    const Vec3 c(-W + spacing * (k % row + 0.5) + jitter(),
                 -W + spacing * (k / row + 0.5) + jitter(), r + 0.01 + spacing * layer);
    const int b = add_body(mb, s, sphere_body("s" + std::to_string(i), 0.1, r), c);
    Geometry g = with_material(sphere_geom(b, r), mu, 0.0);
    mb.add_geometry(g);
  }
  SimSettings st = contact_settings();
  st.solver_settings.max_iters = 100;
  st.solver_settings.tol = 1e-6;
  return finish(mb, s, 2.0, st);
}

}  // namespace moreau::builtin
