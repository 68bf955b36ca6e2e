// The cases of Castro, Permenter & Han 2023 (SAP, Sec. VI-B and VI-C): spring-cylinder and
// clutter. Both run the solver "sap" with per-contact stiffness and dissipation time scale from
// the materials (docs/solvers.md, section `sap`).
#include <cmath>
#include <cstdint>

#include "moreau/scenes/builtin_helpers.hpp"
#include "moreau/scenes/builtin_list.hpp"

namespace moreau::builtin {

namespace {

Material sap_material(double mu, double k, double tau_d) {
  Material m;
  m.friction = mu;
  m.stiffness = k;
  m.tau_d = tau_d;
  return m;
}

// Deterministic uniform numbers in [-1/2, 1/2) (a 64-bit LCG, as sphere-pile).
struct Lcg {
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  double operator()() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(seed >> 11) / 9007199254740992.0 - 0.5;
  }
};

}  // namespace

// Castro 2023, Sec. VI-B (Fig. 4): a solid cylinder (R = 5 cm, m = 0.5 kg, length 10 cm, axis
// along world y) on the ground, pulled towards x = 0 by a linear spring ks = 100 N/m (a Position
// servo on the x DoF of a free joint to the world), released from rest at x0 = 0.1 m. Contact:
// k = 1e4 N/m, tau_d = 0.02 s, friction mu (0: frictionless, the default; --set mu=1: rolling).
// The contact line is two point contacts (the cylinder's collision shape is a capsule of the
// same radius and length, which touches a plane at the two ends of that line and nowhere else),
// each with stiffness k/2 from the cylinder's material, so that the total vertical stiffness is
// k and the static penetration m g / k = 0.49 mm (the cylinder starts there). Exact solution
// x0 cos(w t): w = sqrt(ks / m) frictionless, sqrt(ks / (m + I / R^2)) = sqrt(ks / (1.5 m))
// rolling. SAP with the midpoint rule (sap-midpoint) at dt = 20 ms, the paper's step.
Result<Scene> spring_cylinder(const SceneParams& params) {
  const std::string scene_name = "spring-cylinder";
  MOREAU_SCENE_PARAM(mu, "mu", 0.0);
  MOREAU_SCENE_PARAM(x0, "x0", 0.1);
  MOREAU_SCENE_PARAM(ks, "ks", 100.0);
  MOREAU_SCENE_PARAM(k, "k", 1e4);
  MOREAU_SCENE_PARAM(tau_d, "tau_d", 0.02);
  if (!(mu >= 0.0) || !(ks > 0.0) || !(k > 0.0) || !(tau_d >= 0.0) || !std::isfinite(x0))
    return Error{"", 0, "scene '" + scene_name + "' parameters",
                 "mu >= 0, ks > 0, k > 0, tau_d >= 0 and a finite x0", "a value out of range"};
  const double R = 0.05, m = 0.5, hl = 0.05, g = 9.81;
  ModelBuilder mb(scene_name);
  State s;
  const double z = R - m * g / k;                                   // static penetration m g / k
  const Quat axis_y(Eigen::AngleAxisd(-0.5 * kPi, Vec3::UnitX()));  // local z -> world y
  const int b = add_body(mb, s, cylinder_body("cylinder", m, R, hl), Vec3(x0, 0, z), axis_y);
  Geometry ground = ground_plane(mu, 0.0);  // rigid: the cylinder's material sets k
  mb.add_geometry(ground);
  Geometry cyl;
  cyl.name = "cylinder";
  cyl.body = b;
  cyl.type = ShapeType::Capsule;
  cyl.radius = R;
  cyl.half_length = hl;
  cyl.material = sap_material(mu, 0.5 * k, tau_d);
  mb.add_geometry(cyl);
  Joint spring;
  spring.name = "spring";
  spring.type = JointType::Free;
  spring.base = -1;
  spring.follower = b;
  spring.frame_base = Pose{Vec3(0, 0, z), Quat::Identity()};
  spring.frame_follower = Pose{Vec3::Zero(), axis_y.conjugate()};
  spring.actuators[0].mode = ActuationMode::Position;  // DoF 0: translation along world x
  spring.actuators[0].kp = ks;
  spring.collide_connected = true;  // the joint to the world must not filter the ground contact
  mb.add_joint(spring);
  SimSettings st;
  st.dt = 0.02;
  st.solver = "sap";
  st.integrator = Integrator::SapMidpoint;
  st.solver_settings.tol = 1e-10;
  st.solver_settings.max_iters = 100;
  st.solver_settings.sap.warm_velocity = true;  // the paper's warm start (Sec. IV)
  return finish_scene(mb, std::move(s), 5.0, st);
}

// Castro 2023, Sec. VI-C (Fig. 8): n objects (default 40) dropped in 4 columns of n/4 (the
// first n mod 4 columns take one more) into an 80 x 80 cm container (ground and, with walls=1,
// four walls; walls=0: the open ground). Each object is, by a fixed pseudo-random draw, a sphere
// (r = 5 cm, 0.524 kg) or a box (10 cm sides, 1 kg, random yaw and a tilt of up to 0.1 rad),
// density 1000 kg/m^3; centres 15 cm apart in the column, the lowest at 10 cm, +-1 cm jitter.
// Contact k = 1e12 N/m (near-rigid: eq. 29 picks the stabilization), tau_d = dt, mu = 1 (each
// geometry's material has 2e12 N/m and tau_d = dt, so every pair combines to k = 1e12). SAP at
// dt = 10 ms, eps_r = 1e-5 (the paper's termination value), warm start from u^- (Sec. IV).
Result<Scene> clutter(const SceneParams& params) {
  const std::string scene_name = "clutter";
  MOREAU_SCENE_PARAM(nd, "n", 40.0);
  MOREAU_SCENE_PARAM(walls, "walls", 1.0);
  MOREAU_SCENE_PARAM(mu, "mu", 1.0);
  const int n = static_cast<int>(nd);
  if (n < 1 || n > 10000 || n != nd)
    return Error{"", 0, "scene '" + scene_name + "' parameter 'n'", "an integer in [1, 10000]",
                 std::to_string(nd)};
  if (walls != 0.0 && walls != 1.0)
    return Error{"", 0, "scene '" + scene_name + "' parameter 'walls'", "0 or 1",
                 std::to_string(walls)};
  if (!(mu >= 0.0))
    return Error{"", 0, "scene '" + scene_name + "' parameter 'mu'", "a number >= 0",
                 std::to_string(mu)};
  const double dt = 0.01, W = 0.4, r = 0.05, column = 0.2;
  const Material mat = sap_material(mu, 2e12, dt);
  ModelBuilder mb(scene_name);
  State s;
  Geometry ground = ground_plane();
  ground.material = mat;
  mb.add_geometry(ground);
  if (walls == 1.0) {
    const Vec3 normals[4] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY()};
    for (const Vec3& nrm : normals) {
      Geometry g = ground_plane();
      g.name = "wall";
      g.pose = {-W * nrm, Quat::FromTwoVectors(Vec3::UnitZ(), nrm)};
      g.material = mat;
      mb.add_geometry(g);
    }
  }
  Lcg rnd;
  const double cx[4] = {-column, column, -column, column},
               cy[4] = {-column, -column, column, column};
  for (int i = 0; i < n; ++i) {
    const int c = i % 4, level = i / 4;
    const Vec3 at(cx[c] + 0.02 * rnd(), cy[c] + 0.02 * rnd(), 0.1 + 0.15 * level);
    const bool sphere = rnd() < 0.0;  // one in two
    const std::string name = (sphere ? "sphere" : "box") + std::to_string(i);
    if (sphere) {
      const int b = add_body(mb, s, sphere_body(name, 0.524, r), at);
      Geometry g = sphere_geom(b, r);
      g.name = name;
      g.material = mat;
      mb.add_geometry(g);
    } else {
      const Quat q = Quat(Eigen::AngleAxisd(2.0 * kPi * rnd(), Vec3::UnitZ())) *
                     Quat(Eigen::AngleAxisd(0.2 * rnd(), Vec3::UnitX())) *
                     Quat(Eigen::AngleAxisd(0.2 * rnd(), Vec3::UnitY()));
      const Vec3 h(r, r, r);
      const int b = add_body(mb, s, box_body(name, 1.0, h), at, q.normalized());
      Geometry g = box_geom(b, h);
      g.name = name;
      g.material = mat;
      mb.add_geometry(g);
    }
  }
  SimSettings st;
  st.dt = dt;
  st.solver = "sap";
  st.integrator = Integrator::SapImplicitEuler;
  st.solver_settings.tol = 1e-5;
  st.solver_settings.max_iters = 100;
  st.solver_settings.sap.warm_velocity = true;  // the paper's warm start (Sec. IV)
  return finish_scene(mb, std::move(s), 10.0, st);
}

}  // namespace moreau::builtin
