// Native JSON scene format: bit-exact round trips of every built-in scene, the example scenes in
// scenes/ (load, DoF count, simulate), and the JSON pendulum against the built-in one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver_params.hpp"

using namespace moreau;

namespace {

bool same(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}
template <class M>
bool same(const Eigen::MatrixBase<M>& a, const Eigen::MatrixBase<M>& b) {
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index k = 0; k < a.cols(); ++k)
      if (!same(a(i, k), b(i, k))) return false;
  return true;
}
bool same(const Quat& a, const Quat& b) {
  return same(a.coeffs(), b.coeffs());
}
bool same(const Pose& a, const Pose& b) {
  return same(a.p, b.p) && same(a.q, b.q);
}

bool same_actuator(const DofActuator& a, const DofActuator& b) {
  return a.mode == b.mode && same(a.force, b.force) && same(a.kp, b.kp) && same(a.kd, b.kd) &&
         same(a.target, b.target) && same(a.amplitude, b.amplitude) &&
         same(a.frequency, b.frequency) && same(a.phase, b.phase) &&
         same(a.effort_limit, b.effort_limit);
}

void expect_same_model(const Model& a, const Model& b) {
  EXPECT_EQ(a.name(), b.name());
  EXPECT_TRUE(same(a.gravity(), b.gravity()));
  ASSERT_EQ(a.num_bodies(), b.num_bodies());
  for (int i = 0; i < a.num_bodies(); ++i) {
    EXPECT_EQ(a.bodies()[i].name, b.bodies()[i].name);
    EXPECT_TRUE(same(a.bodies()[i].mass, b.bodies()[i].mass)) << "body " << i;
    EXPECT_TRUE(same(a.bodies()[i].inertia, b.bodies()[i].inertia)) << "body " << i;
  }
  ASSERT_EQ(a.num_joints(), b.num_joints());
  for (int i = 0; i < a.num_joints(); ++i) {
    const Joint &x = a.joints()[i], &y = b.joints()[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.base, y.base);
    EXPECT_EQ(x.follower, y.follower);
    EXPECT_TRUE(same(x.frame_base, y.frame_base)) << x.name;
    EXPECT_TRUE(same(x.frame_follower, y.frame_follower)) << x.name;
    EXPECT_EQ(x.collide_connected, y.collide_connected);
    for (int k = 0; k < x.dofs(); ++k) {
      EXPECT_TRUE(same(x.limits[k].lower, y.limits[k].lower) &&
                  same(x.limits[k].upper, y.limits[k].upper));
      EXPECT_TRUE(same_actuator(x.actuators[k], y.actuators[k])) << x.name << " dof " << k;
      EXPECT_TRUE(same(x.damping[k], y.damping[k]));
      EXPECT_TRUE(same(x.armature[k], y.armature[k]));
      EXPECT_TRUE(same(x.friction[k], y.friction[k]));
    }
  }
  ASSERT_EQ(a.geometries().size(), b.geometries().size());
  for (size_t i = 0; i < a.geometries().size(); ++i) {
    const Geometry &x = a.geometries()[i], &y = b.geometries()[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.body, y.body) << "geometry " << i;
    EXPECT_EQ(x.type, y.type);
    EXPECT_TRUE(same(x.pose, y.pose));
    EXPECT_TRUE(same(x.radius, y.radius) && same(x.half_length, y.half_length) &&
                same(x.half_extents, y.half_extents));
    EXPECT_TRUE(same(x.material.friction, y.material.friction) &&
                same(x.material.restitution, y.material.restitution) &&
                same(x.material.stiffness, y.material.stiffness) &&
                same(x.material.tau_d, y.material.tau_d));
    EXPECT_EQ(x.group, y.group);
    EXPECT_EQ(x.mask, y.mask);
    EXPECT_EQ(x.filter_either, y.filter_either);
    ASSERT_EQ(x.mesh == nullptr, y.mesh == nullptr);
    if (x.mesh) {
      ASSERT_EQ(x.mesh->vertices.size(), y.mesh->vertices.size());
      for (size_t v = 0; v < x.mesh->vertices.size(); ++v)
        EXPECT_TRUE(same(x.mesh->vertices[v], y.mesh->vertices[v]));
      EXPECT_EQ(x.mesh->triangles, y.mesh->triangles);
    }
  }
}

bool same_state(const State& a, const State& b) {
  if (!same(a.t, b.t) || a.num_bodies() != b.num_bodies()) return false;
  for (int i = 0; i < a.num_bodies(); ++i)
    if (!same(a.r[i], b.r[i]) || !same(a.q[i], b.q[i]) || !same(a.u[i], b.u[i])) return false;
  return true;
}

void expect_same_settings(const SimSettings& a, const SimSettings& b) {
  EXPECT_TRUE(same(a.dt, b.dt));
  EXPECT_EQ(a.solver, b.solver);
  EXPECT_EQ(a.integrator, b.integrator);
  EXPECT_EQ(a.warm_start, b.warm_start);
  EXPECT_EQ(a.solver_settings.max_iters, b.solver_settings.max_iters);
  EXPECT_TRUE(same(a.solver_settings.tol, b.solver_settings.tol));
  if (const SolverInfo* info = find_solver(a.solver)) {
    for (const ParamSpec& p : info->params) {
      EXPECT_EQ(p.get(a.solver_settings), p.get(b.solver_settings)) << p.name;
    }
  }
  const DynamicsSettings &x = a.dynamics, &y = b.dynamics;
  EXPECT_TRUE(same(x.beta_joint, y.beta_joint) && same(x.beta_limit, y.beta_limit) &&
              same(x.beta_contact, y.beta_contact));
  EXPECT_EQ(x.drift_compensation, y.drift_compensation);
  EXPECT_EQ(x.position_projection, y.position_projection);
  EXPECT_TRUE(same(x.penetration_margin, y.penetration_margin) &&
              same(x.limit_margin, y.limit_margin));
  EXPECT_TRUE(same(x.restitution_threshold, y.restitution_threshold));
  EXPECT_EQ(x.dense_limit, y.dense_limit);
  EXPECT_EQ(x.softening.enabled, y.softening.enabled);
  EXPECT_TRUE(same(x.softening.contact.timeconst, y.softening.contact.timeconst));
  EXPECT_TRUE(same(a.collision.margin, b.collision.margin));
  EXPECT_EQ(a.collision.mesh_mesh, b.collision.mesh_mesh);
}

std::string scenes_dir() {
  return std::string(MOREAU_SOURCE_DIR) + "/scenes";
}

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(scenes_dir()))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

// Every built-in scene -> JSON -> scene: identical model, state and settings, bit for bit, the same
// text when written again, and the same trajectory bit for bit.
TEST(SceneJson, RoundTripOfEveryBuiltinIsBitExact) {
  for (const std::string& name : builtin_scene_names()) {
    SCOPED_TRACE(name);
    SceneParams params;
    if (name == "sphere-pile") params["n"] = "20";
    if (name == "chain") params["n"] = "10";
    if (name == "clutter") params["n"] = "8";
    Result<Scene> a = make_builtin_scene(name, params);
    ASSERT_TRUE(a) << a.error().message();
    const SolverSettings own_settings = a->settings.solver_settings;
    // A solver parameter off its default travels too: the first of the scene's solver.
    const SolverInfo* info = find_solver(a->settings.solver);
    ASSERT_TRUE(info);
    if (!info->params.empty()) {
      const ParamSpec& p0 = info->params[0];
      const double v = p0.default_value == p0.max ? p0.min : std::min(p0.max, p0.default_value + 1);
      ASSERT_EQ(set_solver_param(a->settings.solver_settings, *info, p0.name, v), "");
    }
    a->settings.dynamics.softening.contact.timeconst = 0.03;
    const std::string text = scene_to_json(*a);
    Result<Scene> b = parse_scene_json(text, "roundtrip.json");
    ASSERT_TRUE(b) << b.error().message();
    EXPECT_EQ(a->name, b->name);
    EXPECT_TRUE(same(a->duration, b->duration));
    expect_same_model(a->model, b->model);
    EXPECT_TRUE(same_state(a->initial, b->initial));
    expect_same_settings(a->settings, b->settings);
    EXPECT_EQ(scene_to_json(*b), text);

    a->settings.solver_settings = own_settings;  // simulate with the scene's own settings
    b->settings.solver_settings = own_settings;
    // 200 steps (20 for the large robot scenes, to keep the test fast). A scene that fails must
    // fail at the same step with the same message.
    const int steps = a->model.num_bodies() <= 12 ? 200 : 20;
    Simulator sa(a->model, a->settings), sb(b->model, b->settings);
    State xa = a->initial, xb = b->initial;
    for (int k = 0; k < steps; ++k) {
      const bool oka = sa.step(xa), okb = sb.step(xb);
      ASSERT_EQ(oka, okb) << sa.error() << " | " << sb.error();
      if (!oka) {
        EXPECT_EQ(sa.error(), sb.error());
        break;
      }
      ASSERT_TRUE(same_state(xa, xb)) << "trajectories differ at step " << k + 1;
    }
  }
}

TEST(SceneJson, JointDofDataAndMeshesRoundTrip) {
  // Limits, damping, actuators, collision filters, a convex mesh and a triangle mesh, inline.
  const std::string text = R"({
    "name": "dofs", "start_time": 0.25,
    "bodies": [{"name": "a", "mass": 2, "inertia": [0.1, 0.2, 0.25]},
               {"name": "b", "mass": 1, "inertia": {"sphere": 0.1}, "position": [0, 0, -1],
                "geometries": [{"type": "convex_mesh", "vertices": [[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]],
                                "group": 2, "mask": 5, "filter": "either"}]}],
    "geometries": [{"name": "floor", "type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]],
                    "position": [0, 0, -3]}],
    "joints": [{"name": "s", "type": "cylindrical", "base": "a", "follower": "b", "anchor": [0, 0, -0.5],
                "axis": [0, 0.6, 0.8], "limits": [{"lower": -0.1}, {"lower": -1, "upper": 2}],
                "damping": 0.3, "armature": [0, 0.02], "friction": [0.5, 0], "collide_connected": true,
                "actuators": [{"mode": "position", "kp": 10, "kd": 1, "target": 0.1, "amplitude": 0.2,
                               "frequency": 3, "phase": 0.5, "effort_limit": 7}, null]}]
  })";
  Result<Scene> a = parse_scene_json(text, "dofs.json");
  ASSERT_TRUE(a) << a.error().message();
  const Joint& j = a->model.joints()[0];
  EXPECT_EQ(j.limits[0].lower, -0.1);
  EXPECT_EQ(j.limits[0].upper, std::numeric_limits<double>::infinity());
  EXPECT_EQ(j.damping[1], 0.3);
  EXPECT_EQ(j.armature[0], 0.0);
  EXPECT_EQ(j.armature[1], 0.02);
  EXPECT_EQ(j.friction[0], 0.5);
  EXPECT_EQ(j.actuators[0].mode, ActuationMode::Position);
  EXPECT_EQ(j.actuators[1].mode, ActuationMode::Passive);
  EXPECT_EQ(a->initial.t, 0.25);
  EXPECT_EQ(a->model.geometries()[0].group, 2u);  // body geometries come first
  EXPECT_TRUE(a->model.geometries()[0].filter_either);
  EXPECT_FALSE(a->model.geometries()[1].filter_either);
  // The anchor frame: joint x along the normalized axis, in the world, in the initial state.
  const Vec3 x_world = (a->initial.q[0] * (j.frame_base.q * Vec3::UnitX()));
  EXPECT_LE((x_world - Vec3(0, 0.6, 0.8)).norm(), 1e-15);
  EXPECT_LE(joint_residual(a->model, a->initial).cwiseAbs().maxCoeff(), 1e-15);
  const std::string out = scene_to_json(*a);
  Result<Scene> b = parse_scene_json(out, "dofs2.json");
  ASSERT_TRUE(b) << b.error().message() << "\n" << out;
  expect_same_model(a->model, b->model);
  EXPECT_TRUE(same_state(a->initial, b->initial));
  EXPECT_EQ(scene_to_json(*b), out);
}

// settings.collision.mesh_mesh: "hull" by default (and then not written), "triangles" read and
// written back.
TEST(SceneJson, MeshMeshModeRoundTrips) {
  const std::string base =
      R"({"name": "m", "bodies": [{"name": "a", "mass": 1, "inertia": [1, 1, 1]}])";
  Result<Scene> a = parse_scene_json(base + "}", "a.json");
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_EQ(a->settings.collision.mesh_mesh, MeshMeshMode::Hull);
  EXPECT_EQ(scene_to_json(*a).find("mesh_mesh"), std::string::npos);
  Result<Scene> b = parse_scene_json(
      base + R"(, "settings": {"collision": {"margin": 0.002, "mesh_mesh": "triangles"}}})",
      "b.json");
  ASSERT_TRUE(b) << b.error().message();
  EXPECT_EQ(b->settings.collision.mesh_mesh, MeshMeshMode::Triangles);
  const std::string out = scene_to_json(*b);
  EXPECT_NE(out.find("\"mesh_mesh\": \"triangles\""), std::string::npos) << out;
  Result<Scene> c = parse_scene_json(out, "c.json");
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_EQ(c->settings.collision.mesh_mesh, MeshMeshMode::Triangles);
}

TEST(SceneJson, NmdpObjectiveRoundTrips) {
  const std::string base =
      R"({"name": "m", "bodies": [{"name": "a", "mass": 1, "inertia": [1, 1, 1]}], "settings": )";
  Result<Scene> a = parse_scene_json(base + R"({"integrator": "nmdp"}})", "a.json");
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_EQ(a->settings.nmdp.objective, nmdp::NmdpObjective::Kinetic);  // eq. 6, the default
  EXPECT_EQ(scene_to_json(*a).find("objective"), std::string::npos);
  Result<Scene> b = parse_scene_json(
      base + R"({"integrator": "mdp", "nmdp": {"objective": "dissipation"}}})", "b.json");
  ASSERT_TRUE(b) << b.error().message();
  EXPECT_EQ(b->settings.nmdp.objective, nmdp::NmdpObjective::Dissipation);
  const std::string out = scene_to_json(*b);
  EXPECT_NE(out.find("\"objective\": \"dissipation\""), std::string::npos) << out;
  Result<Scene> c = parse_scene_json(out, "c.json");
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_EQ(c->settings.nmdp.objective, nmdp::NmdpObjective::Dissipation);
}

// Every scenes/*.json loads, has the expected number of DoFs (6 nb - rank J), starts on its
// constraint manifold, and runs 100 PGS steps with finite states and joint/limit violation < 1e-6.
TEST(SceneJson, ExampleScenesLoadAndSimulate) {
  const std::map<std::string, int> dofs = {
      {"free-hover", 6},          {"revolute-pendulum", 1},     {"prismatic-slider", 1},
      {"cylindrical-spindle", 2}, {"universal-cardan", 2},      {"spherical-conical", 3},
      {"cartesian-gantry", 3},    {"fixed-welded", 6},          {"fourbar", 1},
      {"contact-shapes", 36},     {"sequence-offset-hinges", 2}};
  std::set<JointType> types;
  int checked = 0;
  for (const std::string& file : example_files()) {
    SCOPED_TRACE(file);
    Result<Scene> sc = load_scene(file);
    ASSERT_TRUE(sc) << sc.error().message();
    const std::string stem = std::filesystem::path(file).stem().string();
    ASSERT_TRUE(dofs.count(stem)) << "add the expected DoF count of " << stem << " to this test";
    const Model& m = sc->model;
    for (const Joint& j : m.joints()) types.insert(j.type);
    const int rank = m.joint_rows() ? numerical_rank(joint_jacobian(m, sc->initial)) : 0;
    EXPECT_EQ(6 * m.num_bodies() - rank, dofs.at(stem));
    EXPECT_LE(constraint_violation(m, sc->initial), 1e-12);
    SimSettings st = sc->settings;
    EXPECT_EQ(st.solver, "pgs");
    Simulator sim(m, st);
    State s = sc->initial;
    double worst = 0.0;
    for (int k = 0; k < 100; ++k) {
      ASSERT_TRUE(sim.step(s)) << sim.error();
      ASSERT_TRUE(s.all_finite());
      worst = std::max(worst, constraint_violation(m, s));
    }
    EXPECT_LT(worst, 1e-6);
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(dofs.size()));
  EXPECT_EQ(types.size(), static_cast<size_t>(kNumJointTypes)) << "an example per joint type";
}

// scenes/revolute-pendulum.json describes the built-in pendulum: same model and a trajectory that
// agrees to round-off (the file's decimal CoM position differs from the built-in's in the last
// bits).
TEST(SceneJson, JsonPendulumBehavesLikeBuiltinPendulum) {
  Result<Scene> js = load_scene_json_file(scenes_dir() + "/revolute-pendulum.json");
  ASSERT_TRUE(js) << js.error().message();
  Result<Scene> bi = make_builtin_scene("pendulum");
  ASSERT_TRUE(bi);
  ASSERT_EQ(js->model.num_bodies(), 1);
  EXPECT_TRUE(same(js->model.bodies()[0].inertia, bi->model.bodies()[0].inertia));
  EXPECT_TRUE(same(js->initial.q[0], bi->initial.q[0]));
  EXPECT_LE((js->initial.r[0] - bi->initial.r[0]).norm(), 1e-16);
  SimSettings st = bi->settings;
  Simulator sj(js->model, st), sb(bi->model, st);
  State a = js->initial, b = bi->initial;
  double worst = 0.0;
  for (int k = 0; k < 2000; ++k) {
    ASSERT_TRUE(sj.step(a) && sb.step(b));
    worst = std::max(worst, (a.r[0] - b.r[0]).norm());
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT((a.r[0] - js->initial.r[0]).norm(), 0.1);  // it did swing
}

// The prismatic DoF is the displacement along "axis": on a rail tilted 30 degrees down, with
// viscous damping c, q(t) = (a / c) (t - (1 - exp(-c t)) / c), a = g sin 30.
TEST(SceneJson, PrismaticAxisFollowsTheGivenDirection) {
  Result<Scene> sc = load_scene_json_file(scenes_dir() + "/prismatic-slider.json");
  ASSERT_TRUE(sc) << sc.error().message();
  const Model& m = sc->model;
  Simulator sim(m, sc->settings);
  State s = sc->initial;
  const int n = 400;
  for (int k = 0; k < n; ++k) ASSERT_TRUE(sim.step(s)) << sim.error();
  double q = 0.0, qd = 0.0;
  joint_dof_state(m.joints()[0], s, 0, &q, &qd);
  const double a = 9.81 * 0.5, c = m.joints()[0].damping[0] / m.bodies()[0].mass,
               t = n * sc->settings.dt;
  const double expected = (a / c) * (t - (1.0 - std::exp(-c * t)) / c);
  EXPECT_NEAR(q, expected, 5e-3 * expected);
  const Vec3 dir(std::cos(0.5235987755982988), 0.0, -0.5);
  EXPECT_LE((s.r[0] - sc->initial.r[0] - q * dir).norm(), 1e-6);
}
