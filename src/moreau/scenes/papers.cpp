// The papers' cases as simulated scenes (Todorov 2010, Sec. IV; Schindler et al. 2011, Sec. V):
//   ball-stack, balls-in-cube  Todorov, "Implicit nonlinear complementarity" (ICRA 2010), solver
//   ngn painleve, point-mass       Schindler, Nguyen & Trinkle (IROS 2011), solvers lemke and
//   prox-fp
// All four use restitution 0 and beta_contact = 0: Todorov's b = 0 for touching contacts. A contact
// that is still open by gap > 0 (within the collision margin) keeps the bias v_n >= -gap / dt, his
// b = -phi / h (the b of Todorov eq. 11).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "moreau/scenes/builtin_helpers.hpp"
#include "moreau/scenes/builtin_list.hpp"

namespace moreau::builtin {

namespace {

constexpr double kDensity = 1000.0;  // water, kg/m^3 (Todorov gives none; docs/solvers-implicit.md)

Error bad_param(const std::string& scene, const std::string& key, const std::string& expected,
                double got) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", got);
  return Error{"", 0, "scene '" + scene + "' parameter '" + key + "'", expected, buf};
}

bool is_integer_in(double x, double lo, double hi) {
  return x >= lo && x <= hi && x == std::floor(x);
}

SimSettings paper_settings(const char* solver, double dt) {
  SimSettings s;
  s.dt = dt;
  s.solver = solver;
  s.solver_settings.max_iters = 50;  // Todorov's MaxIt (he gives no value)
  s.solver_settings.tol = 1e-10;
  s.collision.margin = 1e-3;
  s.dynamics.penetration_margin = 0.0;
  s.dynamics.beta_contact = 0.0;  // b = 0 (Todorov Sec. IV)
  s.fast_path = false;            // the paper's solver on the full problem
  return s;
}

Geometry with_friction(Geometry g, const std::string& name, double mu) {
  g.name = name;
  g.material.friction = mu;
  g.material.restitution = 0.0;
  return g;
}

// A world half-space through `point` whose outward normal is `normal`.
Geometry wall(const std::string& name, const Vec3& point, const Vec3& normal, double mu) {
  Geometry g = ground_plane(mu, 0.0);
  g.name = name;
  g.pose = {point, Quat::FromTwoVectors(Vec3::UnitZ(), normal)};
  return g;
}

double ball_mass(double r) {
  return kDensity * 4.0 / 3.0 * kPi * r * r * r;
}

// Uniform double in [0, 1) from the top 53 bits of one mt19937_64 draw (portable, unlike
// std::uniform_real_distribution whose output is implementation-defined).
double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * uniform01(rng);
}

// Unit vector, uniform on the sphere: rejection from the cube [-1, 1]^3.
Vec3 random_direction(std::mt19937_64& rng) {
  for (;;) {
    const Vec3 d(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const double n = d.norm();
    if (n > 1e-3 && n <= 1.0) return d / n;
  }
}
}  // namespace

// Todorov Fig. 6: five balls (r = 0.1 m, water density) stacked touching on the ground, all
// moving down at `v` (default 1 m/s; 0 = resting): the shock crosses the stack in one step, so
// every vertical velocity becomes 0 there, and ngn's all-stick start is exact (Todorov Sec. IV).
Result<Scene> ball_stack(const SceneParams& params) {
  const std::string scene_name = "ball-stack";
  MOREAU_SCENE_PARAM(v, "v", 1.0);
  MOREAU_SCENE_PARAM(mu, "mu", 0.5);
  if (!(mu >= 0.0)) return bad_param(scene_name, "mu", "mu >= 0", mu);
  ModelBuilder mb(scene_name);
  State s;
  const double r = 0.1;
  mb.add_geometry(with_friction(ground_plane(), "ground", mu));
  for (int i = 0; i < 5; ++i) {
    const std::string name = "ball" + std::to_string(i);
    Vec6 u = Vec6::Zero();
    u[2] = -v;
    const int b = add_body(mb, s, sphere_body(name, ball_mass(r), r), Vec3(0, 0, r * (2 * i + 1)),
                           Quat::Identity(), u);
    mb.add_geometry(with_friction(sphere_geom(b, r), name, mu));
  }
  SimSettings st = paper_settings("ngn", 5e-3);
  st.warm_start = false;  // all-stick initialisation every step (Todorov Sec. IV)
  return finish_scene(mb, s, 0.5, st);
}

// Todorov Table 1 (Sec. IV): n balls of radii U[0.05, 0.15] m in a closed 1 m cube (six walls,
// x, y in [-0.5, 0.5], z in [0, 1]), positions uniform without overlap, velocities uniform in
// direction with speed U[0, 1] m/s; mt19937_64(seed). ngn without warm start or restarts, as in
// the paper: the last iterate is accepted (sizes, speeds, density: ours). The collision margin
// (3 cm) exceeds the travel of a step (5.4 m/s x 5 ms): no contact is first seen penetrated.
Result<Scene> balls_in_cube(const SceneParams& params) {
  const std::string scene_name = "balls-in-cube";
  MOREAU_SCENE_PARAM(nd, "n", 10.0);
  MOREAU_SCENE_PARAM(mu, "mu", 0.2);
  MOREAU_SCENE_PARAM(seedd, "seed", 1.0);
  if (!is_integer_in(nd, 1, 40)) return bad_param(scene_name, "n", "an integer in [1, 40]", nd);
  if (!(mu >= 0.0)) return bad_param(scene_name, "mu", "mu >= 0", mu);
  if (!is_integer_in(seedd, 0, 9007199254740992.0))
    return bad_param(scene_name, "seed", "an integer in [0, 2^53]", seedd);
  const int n = static_cast<int>(nd);
  std::mt19937_64 rng(static_cast<uint64_t>(seedd));
  ModelBuilder mb(scene_name);
  State s;
  const double W = 0.5, H = 1.0;
  mb.add_geometry(wall("floor", Vec3(0, 0, 0), Vec3::UnitZ(), mu));
  mb.add_geometry(wall("ceiling", Vec3(0, 0, H), -Vec3::UnitZ(), mu));
  mb.add_geometry(wall("wall-x0", Vec3(-W, 0, 0), Vec3::UnitX(), mu));
  mb.add_geometry(wall("wall-x1", Vec3(W, 0, 0), -Vec3::UnitX(), mu));
  mb.add_geometry(wall("wall-y0", Vec3(0, -W, 0), Vec3::UnitY(), mu));
  mb.add_geometry(wall("wall-y1", Vec3(0, W, 0), -Vec3::UnitY(), mu));
  std::vector<double> radii;
  for (int i = 0; i < n; ++i) {
    const double r = uniform(rng, 0.05, 0.15);
    Vec3 c;
    bool placed = false;
    for (int attempt = 0; attempt < 10000 && !placed; ++attempt) {
      c = Vec3(uniform(rng, -W + r, W - r), uniform(rng, -W + r, W - r), uniform(rng, r, H - r));
      placed = true;
      for (int j = 0; j < i && placed; ++j) placed = (c - s.r[j]).norm() > r + radii[j];
    }
    if (!placed) return bad_param(scene_name, "n", "few enough balls to place without overlap", nd);
    Vec6 u = Vec6::Zero();
    u.head<3>() = uniform(rng, 0.0, 1.0) * random_direction(rng);
    const std::string name = "ball" + std::to_string(i);
    const int b = add_body(mb, s, sphere_body(name, ball_mass(r), r), c, Quat::Identity(), u);
    mb.add_geometry(with_friction(sphere_geom(b, r), name, mu));
    radii.push_back(r);
  }
  SimSettings st = paper_settings("ngn", 5e-3);
  st.warm_start = false;                // all-stick initialisation (Todorov Sec. IV)
  st.solver_settings.ngn.restarts = 0;  // the paper: keep the last iterate
  st.collision.margin = 0.03;
  return finish_scene(mb, s, 1.0, st);
}

// Schindler et al. Sec. V-B (eq. 33-45): a uniform rod (m = 1 kg, L = 1 m, J = m L^2 / 12) at
// q_theta = atan 2 to the ground, its lower end on the plane, sliding left at `v` (default 1 m/s)
// while it leans right, so friction pushes +x (lambda_T = +mu lambda_U). The end is a 5 mm ball
// placed so that the contact point is exactly L/2 from the CoM along the rod. Cases (eq. 45, G of
// the sliding one-row LCP 0 <= lambda perp G lambda + b >= 0):
//   case=1  mu = 0.3, gravity down: G = 1.24 > 0, unique solution (contact kept);
//   case=2  mu = 1.5, gravity up:   G = -0.2, b > 0, two solutions {0, g/G};
//   case=3  mu = 1.5, gravity down: G = -0.2, b < 0, no solution.
Result<Scene> painleve(const SceneParams& params) {
  const std::string scene_name = "painleve";
  MOREAU_SCENE_PARAM(cased, "case", 1.0);
  MOREAU_SCENE_PARAM(v, "v", 1.0);
  if (!is_integer_in(cased, 1, 3)) return bad_param(scene_name, "case", "1, 2 or 3", cased);
  if (!(v > 0.0)) return bad_param(scene_name, "v", "a sliding speed > 0", v);
  const int which = static_cast<int>(cased);
  const double m = 1.0, L = 1.0, theta = std::atan(2.0), rho = 0.005;
  const double mu = which == 1 ? 0.3 : 1.5;
  ModelBuilder mb(scene_name);
  if (which == 2) mb.set_gravity(Vec3(0, 0, 9.81));  // "gravity upward": b > 0
  State s;
  Body rod;
  rod.name = "rod";
  rod.mass = m;
  const double J = m * L * L / 12.0;
  rod.inertia = Vec3(0.5 * m * 0.01 * 0.01, J, J).asDiagonal();  // axis = local x, 1 cm radius
  const Quat q(Eigen::AngleAxisd(-theta, Vec3::UnitY()));        // local x -> (cos, 0, sin)
  const Vec3 axis = q * Vec3::UnitX();
  Vec6 u = Vec6::Zero();
  u[0] = -v;
  const int b = add_body(mb, s, rod, Vec3(0, 0, 0.5 * L * std::sin(theta)), q, u);
  mb.add_geometry(with_friction(ground_plane(), "ground", mu));
  // Ball centre = contact point + rho z, in the rod frame.
  const Vec3 tip = q.inverse() * (-0.5 * L * axis + rho * Vec3::UnitZ());
  mb.add_geometry(with_friction(sphere_geom(b, rho, Pose{tip, Quat::Identity()}), "tip", mu));
  // The same ball at the upper end, 0.89 m above the plane at the start (outside the paper's
  // 0.2 s): the rod that has fallen lies on both ends instead of swinging through the plane
  // around its tip (docs/reliability.md, "Soak").
  const Vec3 top(0.5 * L, 0.0, 0.0);  // rod frame: the axis is local x
  mb.add_geometry(with_friction(sphere_geom(b, rho, Pose{top, Quat::Identity()}), "top", mu));
  SimSettings st = paper_settings("lemke", 1e-3);
  st.solver_settings.max_iters = 1000;  // pivots
  return finish_scene(mb, s, 0.2, st);
}

// Schindler et al. Sec. V-A (eq. 19-22): a point mass m (default 1 kg) on a plane with friction mu
// (default 0.5), moving along x at `v` (default 0). The collision shape is a 1 cm ball whose
// lowest point is the CoM, so the contact acts at the mass: D = I / m exactly, and prox-fp with
// r = m converges in one iteration. It sticks within a step iff |v| <= mu g dt.
Result<Scene> point_mass(const SceneParams& params) {
  const std::string scene_name = "point-mass";
  MOREAU_SCENE_PARAM(m, "m", 1.0);
  MOREAU_SCENE_PARAM(mu, "mu", 0.5);
  MOREAU_SCENE_PARAM(v, "v", 0.0);
  if (!(m > 0.0)) return bad_param(scene_name, "m", "a mass > 0", m);
  if (!(mu >= 0.0)) return bad_param(scene_name, "mu", "mu >= 0", mu);
  const double rho = 0.01;
  ModelBuilder mb(scene_name);
  State s;
  Vec6 u = Vec6::Zero();
  u[0] = v;
  const int b = add_body(mb, s, sphere_body("mass", m, rho), Vec3::Zero(), Quat::Identity(), u);
  mb.add_geometry(with_friction(ground_plane(), "ground", mu));
  mb.add_geometry(
      with_friction(sphere_geom(b, rho, Pose{Vec3(0, 0, rho), Quat::Identity()}), "mass", mu));
  SimSettings st = paper_settings("prox-fp", 1e-3);
  st.solver_settings.max_iters = 200;
  return finish_scene(mb, s, 1.0, st);
}

#undef MOREAU_PAPER_PARAM

}  // namespace moreau::builtin
