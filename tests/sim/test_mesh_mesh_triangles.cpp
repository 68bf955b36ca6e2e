// Triangle-level mesh-mesh contacts (collision.mesh_mesh = "triangles", docs/collision.md,
// "Mesh-mesh pairs"): a mesh cube resting on a mesh cube matches two box primitives and stays at
// rest; a cube dropped into a U-shaped channel reaches the channel's floor, where the convex hulls
// hold it on top; an open mesh falls back to the hulls with a warning naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "moreau/math/so3.hpp"
#include "moreau/sim/simulator.hpp"
#include "support/meshes.hpp"

using namespace moreau;
using moreau::test::box_mesh;
using moreau::test::expect_same_contacts;
using moreau::test::face_down;
using moreau::test::icosphere;

namespace {

// A U-shaped channel along y (|y| <= L): outer |x| <= a, inner |x| <= b, floor 0 <= z <= f,
// walls up to z = H. The profile polygon in (x, z), extruded: a closed surface, its two caps
// triangulated as fans (wound arbitrarily: the closed-mesh construction orients them).
struct Channel {
  double a = 0.5, b = 0.3, f = 0.1, H = 0.5, L = 0.5;
};
std::shared_ptr<const MeshData> channel_mesh(const Channel& c) {
  const double px[10] = {-c.a, -c.b, c.b, c.a, c.a, c.b, c.b, -c.b, -c.b, -c.a};
  const double pz[10] = {0, 0, 0, 0, c.H, c.H, c.f, c.f, c.H, c.H};
  const int cap[8][3] = {{0, 1, 7}, {0, 7, 8}, {0, 8, 9}, {1, 2, 6},
                         {1, 6, 7}, {3, 4, 5}, {3, 5, 6}, {3, 6, 2}};
  auto m = std::make_shared<MeshData>();
  m->source = "U channel";
  for (double y : {-c.L, c.L})
    for (int i = 0; i < 10; ++i) m->vertices.push_back(Vec3(px[i], y, pz[i]));
  for (const auto& t : cap) {
    m->triangles.push_back({t[0], t[1], t[2]});
    m->triangles.push_back({t[0] + 10, t[1] + 10, t[2] + 10});
  }
  for (int i = 0; i < 10; ++i) {
    const int j = (i + 1) % 10;
    m->triangles.push_back({i, j, j + 10});
    m->triangles.push_back({i, j + 10, i + 10});
  }
  return m;
}

// A static geometry `lower` (world) and a free body `upper` of the given mass and inertia.
Model pair_model(Geometry lower, Geometry upper, double mass, const Mat3& inertia) {
  ModelBuilder mb("mesh pair");
  Body b;
  b.name = "top";
  b.mass = mass;
  b.inertia = inertia;
  mb.add_body(b);
  lower.body = -1;
  upper.body = 0;
  mb.add_geometry(lower);
  mb.add_geometry(upper);
  return *mb.build();
}

Geometry cube(const std::string& name, bool mesh, double h) {
  Geometry g;
  g.name = name;
  g.type = mesh ? ShapeType::TriangleMesh : ShapeType::Box;
  g.half_extents = Vec3::Constant(h);
  if (mesh) g.mesh = box_mesh(Vec3::Constant(h));
  return g;
}

Model cube_on_cube(bool mesh) {
  return pair_model(cube("lower", mesh, 0.5), cube("upper", mesh, 0.5), 2.0,
                    (2.0 / 6.0) * Mat3::Identity());
}

State posed(const Model& m, const Vec3& r, const Quat& q) {
  State s = State::zeros(m.num_bodies());
  s.r[0] = r;
  s.q[0] = q;
  return s;
}

SimSettings triangles(SimSettings st = {}) {
  st.collision.mesh_mesh = MeshMeshMode::Triangles;
  return st;
}

// One step of two box primitives and of the two mesh cubes (triangles) from the same state.
struct BoxesAndMeshes {
  Model boxes = cube_on_cube(false), meshes = cube_on_cube(true);
  Simulator sb, sm;
  State xb, xm;
  BoxesAndMeshes(const Vec3& r, const Quat& q, const SimSettings& st)
      : sb(boxes, st), sm(meshes, triangles(st)), xb(posed(boxes, r, q)), xm(posed(meshes, r, q)) {}
  double impulse(const Simulator& s) const {
    double sum = 0.0;
    for (size_t k = 0; k < s.contacts().size(); ++k) sum += s.solution().lambda[3 * k + 2];
    return sum;
  }
};

SimSettings exact_pgs_settings() {
  SimSettings st;
  st.solver = "pgs";
  st.solver_settings.tol = 1e-14;
  st.solver_settings.max_iters = 100000;
  st.warm_start = false;
  return st;
}

}  // namespace

// Resting (gap 0, coincident corners), and shifted sideways and penetrating so that the faces
// overlap partly: two corners of the overlap from vertex-face contacts, two from crossing edges.
// The contacts, the total normal impulse and the step are those of two box primitives.
TEST(MeshMeshTriangles, CubeMeshesMatchBoxPrimitives) {
  for (const Vec3& r : {Vec3(0, 0, 1.0), Vec3(0.3, 0.2, 0.9999)}) {
    BoxesAndMeshes t(r, Quat::Identity(), exact_pgs_settings());
    ASSERT_TRUE(t.sm.warnings().empty());
    ASSERT_TRUE(t.sb.step(t.xb)) << t.sb.error();
    ASSERT_TRUE(t.sm.step(t.xm)) << t.sm.error();
    std::vector<Contact> cb = t.sb.contacts(), cm = t.sm.contacts();
    ASSERT_EQ(cb.size(), 4u);
    ASSERT_EQ(cm.size(), 4u);
    expect_same_contacts(cb, cm);
    const double nb = t.impulse(t.sb), nm = t.impulse(t.sm);
    std::printf("total normal impulse: boxes %.15g, triangles %.15g N s (relative %.1e)\n", nb, nm,
                std::abs(nb - nm) / nb);
    EXPECT_GT(nb, 0.0);
    EXPECT_NEAR(nb, nm, 1e-12 * nb);
    EXPECT_LE((t.xb.r[0] - t.xm.r[0]).norm(), 1e-12);
  }
}

// Tilted and penetrating: the box-box manifold clips the faces (three points below the margin:
// one corner under a face, two where an edge crosses under the other face's boundary). The
// triangle-level contacts find the same three: a vertex-face and two edge-face contacts.
TEST(MeshMeshTriangles, TiltedCubeMatchesBoxPrimitives) {
  const Quat tilt(Eigen::AngleAxisd(0.02, Vec3(1, 2, 0).normalized()));
  BoxesAndMeshes t(Vec3(0.2, -0.1, 0.995), tilt, exact_pgs_settings());
  ASSERT_TRUE(t.sb.step(t.xb)) << t.sb.error();
  ASSERT_TRUE(t.sm.step(t.xm)) << t.sm.error();
  std::vector<Contact> cb = t.sb.contacts(), cm = t.sm.contacts();
  for (const Contact& c : cb)
    std::printf("  boxes: point (%.6f %.6f %.6f) normal (%.4g %.4g %.4g) gap %.4e\n", c.point.x(),
                c.point.y(), c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(), c.gap);
  for (const Contact& c : cm)
    std::printf("  triangles: point (%.6f %.6f %.6f) normal (%.4g %.4g %.4g) gap %.4e id %u\n",
                c.point.x(), c.point.y(), c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(),
                c.gap, static_cast<unsigned>(c.id & 0xFFFFF));
  ASSERT_EQ(cb.size(), 3u);
  ASSERT_EQ(cm.size(), 3u);
  expect_same_contacts(cb, cm);
  const double nb = t.impulse(t.sb), nm = t.impulse(t.sm);
  std::printf("tilted: total normal impulse: boxes %.15g, triangles %.15g N s (relative %.1e)\n",
              nb, nm, std::abs(nb - nm) / nb);
  EXPECT_NEAR(nb, nm, 1e-12 * nb);
}

// Dropped tilted from 2 cm, the upper cube comes to rest flat on the lower one.
TEST(MeshMeshTriangles, TiltedCubeSettlesFlat) {
  const Model m = cube_on_cube(true);
  const Quat tilt(Eigen::AngleAxisd(0.05, Vec3(1, 2, 0).normalized()));
  State s = posed(m, Vec3(0.1, 0.05, 1.02 + 0.5 * std::sqrt(2.0) * 0.05), tilt);
  Simulator sim(m, triangles());
  while (s.t < 2.0 - 1e-12) ASSERT_TRUE(sim.step(s)) << sim.error();
  const Vec3 up = s.q[0] * Vec3::UnitZ();
  std::printf("tilted drop, 2 s: z %.9f, tilt %.3e rad, speed %.3e m/s, %zu contacts\n", s.r[0].z(),
              std::acos(std::min(1.0, up.z())), s.u[0].norm(), sim.contacts().size());
  EXPECT_NEAR(s.r[0].z(), 1.0, 1e-4);
  EXPECT_LE(std::acos(std::min(1.0, up.z())), 1e-4);
  EXPECT_LE(s.u[0].norm(), 1e-3);
}

TEST(MeshMeshTriangles, CubeMeshRestsOnACubeMesh) {
  const Model m = cube_on_cube(true);
  const Vec3 r0(0.1, -0.05, 1.0);
  State s = posed(m, r0, Quat::Identity());
  Simulator sim(m, triangles());
  double vmax = 0.0;
  while (s.t < 1.0 - 1e-12) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    vmax = std::max(vmax, s.u[0].norm());
  }
  const double drift = (s.r[0] - r0).norm(), angle = quat_log(s.q[0]).norm();
  std::printf(
      "cube on cube (triangles), 1 s: drift %.3e m, rotation %.3e rad, max speed %.3e, "
      "%zu contacts\n",
      drift, angle, vmax, sim.contacts().size());
  EXPECT_EQ(sim.contacts().size(), 4u);
  EXPECT_LE(drift, 1e-6);
  EXPECT_LE(angle, 1e-6);
}

// The channel as a triangle mesh under a free cube of half side h (1 kg).
static Model cube_over_channel(const Channel& c, double h) {
  Geometry lower;
  lower.name = "channel";
  lower.type = ShapeType::TriangleMesh;
  lower.mesh = channel_mesh(c);
  return pair_model(lower, cube("cube", true, h), 1.0, (4 * h * h / 6.0) * Mat3::Identity());
}

// A cube of half side 0.1 dropped from just above a U channel's walls (outer half width 0.5,
// inner 0.3, floor 0.1 thick, walls 0.5 high): triangle by triangle it falls between the walls and
// rests on the floor at z = f + h = 0.2; through the convex hulls (a box 0.5 high) it rests on top
// at z = H + h = 0.6.
TEST(MeshMeshTriangles, CubeFallsIntoAUChannelOnlyWithTriangles) {
  const Channel c;
  const double h = 0.1;
  const Model m = cube_over_channel(c, h);
  for (const MeshMeshMode mode : {MeshMeshMode::Triangles, MeshMeshMode::Hull}) {
    SimSettings st;
    st.collision.mesh_mesh = mode;
    Simulator sim(m, st);
    ASSERT_TRUE(sim.warnings().empty());
    State s = posed(m, Vec3(0.02, -0.03, c.H + h + 0.005), Quat::Identity());
    while (s.t < 1.0 - 1e-12) ASSERT_TRUE(sim.step(s)) << sim.error();
    const double expect = mode == MeshMeshMode::Triangles ? c.f + h : c.H + h;
    std::printf("%s: cube at z = %.9f (expected %.3f), speed %.3e m/s, rotation %.3e rad\n",
                mesh_mesh_name(mode), s.r[0].z(), expect, s.u[0].norm(), quat_log(s.q[0]).norm());
    EXPECT_NEAR(s.r[0].z(), expect, 1e-4);
    EXPECT_NEAR(s.r[0].x(), 0.02, 1e-4);
    EXPECT_NEAR(s.r[0].y(), -0.03, 1e-4);
    EXPECT_LE(s.u[0].norm(), 1e-3);
  }
}

// An icosphere (radius 0.1, 320 faces) turned face down and placed on a flat box mesh stays at
// rest, on the three corners of its lowest face.
TEST(MeshMeshTriangles, IcosphereRestsOnAFlatBoxMesh) {
  const std::shared_ptr<const MeshData> ball = icosphere(0.1, 2);
  double low = 0.0;
  const Quat q = face_down(*ball, &low);
  Geometry floor;
  floor.name = "floor";
  floor.type = ShapeType::TriangleMesh;
  floor.mesh = box_mesh(Vec3(5, 5, 0.1));
  floor.pose.p = Vec3(0, 0, -0.1);
  Geometry g;
  g.name = "ball";
  g.type = ShapeType::TriangleMesh;
  g.mesh = ball;
  const Model m = pair_model(floor, g, 1.0, 0.4 * 0.01 * Mat3::Identity());
  const Vec3 r0(0.3, -0.2, -low);
  State s = posed(m, r0, q);
  Simulator sim(m, triangles());
  ASSERT_TRUE(sim.warnings().empty());
  double vmax = 0.0;
  while (s.t < 2.0 - 1e-12) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    vmax = std::max(vmax, s.u[0].norm());
  }
  const double angle = quat_log(s.q[0] * q.conjugate()).norm();
  std::printf(
      "icosphere (triangles) 2 s: displacement %.3e m, rotation %.3e rad, max speed "
      "%.3e m/s, %zu contacts\n",
      (s.r[0] - r0).norm(), angle, vmax, sim.contacts().size());
  EXPECT_EQ(sim.contacts().size(), 3u);
  EXPECT_LE((s.r[0] - r0).norm(), 1e-6);
  EXPECT_LE(angle, 1e-5);
  EXPECT_LE(vmax, 1e-3);
}

TEST(MeshMeshTriangles, OpenMeshFallsBackToTheHullWithAWarning) {
  Geometry lower = cube("open box", true, 0.5);
  auto open = box_mesh(Vec3::Constant(0.5));
  open->triangles.pop_back();  // one triangle of a side face missing: the surface is open
  lower.mesh = open;
  const Model m = pair_model(lower, cube("upper", true, 0.5), 2.0, (2.0 / 6.0) * Mat3::Identity());
  Simulator hull(m, SimSettings{});
  EXPECT_TRUE(hull.warnings().empty());
  Simulator sim(m, triangles());
  ASSERT_EQ(sim.warnings().size(), 1u);
  const std::string& w = sim.warnings()[0];
  std::printf("warning: %s\n", w.c_str());
  EXPECT_NE(w.find("geometry 'open box'"), std::string::npos);
  EXPECT_NE(w.find("shared by 1 triangle(s)"), std::string::npos);
  EXPECT_NE(w.find("convex hulls"), std::string::npos);
  // The pair still collides (through the hulls): the upper cube rests on the lower one.
  State s = posed(m, Vec3(0, 0, 1.0), Quat::Identity());
  while (s.t < 0.5 - 1e-12) ASSERT_TRUE(sim.step(s)) << sim.error();
  EXPECT_NEAR(s.r[0].z(), 1.0, 1e-4);
  EXPECT_EQ(sim.contacts().size(), 4u);
}

// Twelve cubes dropped with random orientations from 0.2-0.5 m above the channel's walls, one
// at a time: each tumbles between the walls and comes to rest face down on the floor (z = 0.2),
// some against a wall (two contacts at a corner: floor and wall).
TEST(MeshMeshTriangles, RandomDropsComeToRestOnTheChannelFloor) {
  const Channel c;
  const double h = 0.1;
  const Model m = cube_over_channel(c, h);
  uint64_t state = 99;
  auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (int k = 0; k < 12; ++k) {
    const Vec3 axis = Vec3(uniform() - 0.5, uniform() - 0.5, uniform() - 0.5).normalized();
    const Quat q(Eigen::AngleAxisd(3.0 * uniform(), axis));
    const Vec3 r(0.4 * (uniform() - 0.5), 0.6 * (uniform() - 0.5), c.H + 0.2 + 0.3 * uniform());
    Simulator sim(m, triangles());
    State s = posed(m, r, q);
    double gmin = 0.0;
    while (s.t < 2.0 - 1e-12) {
      ASSERT_TRUE(sim.step(s)) << k << ": " << sim.error();
      for (const Contact& x : sim.contacts()) gmin = std::min(gmin, x.gap);
    }
    const Mat3 Rf = s.q[0].toRotationMatrix();
    const double face_down = Rf.row(2).cwiseAbs().maxCoeff();  // 1: a face axis vertical
    std::printf("drop %d: rests at (%.4f %.4f %.6f), speed %.1e, %zu contacts, deepest %.1e m\n", k,
                s.r[0].x(), s.r[0].y(), s.r[0].z(), s.u[0].norm(), sim.contacts().size(), gmin);
    EXPECT_NEAR(s.r[0].z(), c.f + h, 1e-6) << k;
    EXPECT_LE(std::abs(s.r[0].x()), c.b) << k;
    EXPECT_NEAR(face_down, 1.0, 1e-6) << k;
    EXPECT_LE(s.u[0].norm(), 1e-6) << k;
    EXPECT_GE(sim.contacts().size(), 4u) << k;
  }
}

// Three free mesh cubes stacked on a static one, each shifted sideways by 5 cm: the stack stands
// (body-body triangle-level pairs), as the same stack of box primitives does.
TEST(MeshMeshTriangles, StackOfThreeCubesStands) {
  for (const bool mesh : {false, true}) {
    ModelBuilder mb("stack");
    Geometry base = cube("base", mesh, 0.5);
    base.body = -1;
    mb.add_geometry(base);
    for (int i = 0; i < 3; ++i) {
      Body b;
      b.name = "cube" + std::to_string(i);
      b.mass = 2.0;
      b.inertia = (2.0 / 6.0) * Mat3::Identity();
      mb.add_body(b);
      Geometry g = cube("cube" + std::to_string(i), mesh, 0.5);
      g.body = i;
      mb.add_geometry(g);
    }
    const Model m = *mb.build();
    State s = State::zeros(3);
    for (int i = 0; i < 3; ++i) s.r[i] = Vec3(0.05 * (i + 1), 0.0, 1.0 + i);
    const State s0 = s;
    Simulator sim(m, mesh ? triangles() : SimSettings{});
    ASSERT_TRUE(sim.warnings().empty());
    while (s.t < 2.0 - 1e-12) ASSERT_TRUE(sim.step(s)) << sim.error();
    double drift = 0.0;
    for (int i = 0; i < 3; ++i) drift = std::max(drift, (s.r[i] - s0.r[i]).norm());
    std::printf("%s stack, 2 s: largest drift %.3e m, %zu contacts\n", mesh ? "mesh" : "box", drift,
                sim.contacts().size());
    EXPECT_LE(drift, 1e-8);
    EXPECT_EQ(sim.contacts().size(), 12u);
  }
}

// A hemispherical bowl (lower half of a shell, outer radius Ro, inner Ri, rim at z = 0), closed:
// outer and inner surfaces as latitude rings (n rings, m segments) with a pole each, joined by a
// ring of quads at the rim.
std::shared_ptr<const MeshData> bowl_mesh(double Ro, double Ri, int n, int m) {
  auto mesh = std::make_shared<MeshData>();
  mesh->source = "bowl";
  auto& v = mesh->vertices;
  auto& t = mesh->triangles;
  for (const double R : {Ro, Ri}) {
    for (int k = 0; k < n; ++k) {
      const double phi = 0.5 * M_PI + 0.5 * M_PI * k / n;  // from the rim (z = 0) down
      for (int j = 0; j < m; ++j) {
        const double th = 2 * M_PI * j / m;
        v.push_back(
            R * Vec3(std::sin(phi) * std::cos(th), std::sin(phi) * std::sin(th), std::cos(phi)));
      }
    }
    v.push_back(Vec3(0, 0, -R));
  }
  const int shell = n * m + 1;  // vertices per surface
  for (int s = 0; s < 2; ++s) {
    const int o = s * shell, pole = o + n * m;
    for (int k = 0; k + 1 < n; ++k)
      for (int j = 0; j < m; ++j) {
        const int a = o + k * m + j, b = o + k * m + (j + 1) % m, c = a + m, d = b + m;
        t.push_back({a, b, d});
        t.push_back({a, d, c});
      }
    for (int j = 0; j < m; ++j)
      t.push_back({o + (n - 1) * m + j, o + (n - 1) * m + (j + 1) % m, pole});
  }
  for (int j = 0; j < m; ++j) {
    const int a = j, b = (j + 1) % m, c = shell + j, d = shell + (j + 1) % m;
    t.push_back({a, b, d});
    t.push_back({a, d, c});
  }
  return mesh;
}

// An icosphere (radius 0.1) dropped into a hemispherical bowl (inner radius 0.45, rim at z = 0)
// from beside the axis: triangle by triangle it lands inside and rolls about the bottom, its
// centre on the sphere of radius 0.45 - 0.1 about the bowl's centre (to the facets' sag), never
// through the bowl. (Through the convex hulls it would rest on the flat top, z = 0.1.)
TEST(MeshMeshTriangles, BallRollsInABowl) {
  Geometry bowl;
  bowl.name = "bowl";
  bowl.type = ShapeType::TriangleMesh;
  bowl.mesh = bowl_mesh(0.5, 0.45, 12, 32);
  Geometry g;
  g.name = "ball";
  g.type = ShapeType::TriangleMesh;
  g.mesh = icosphere(0.1, 2);
  const Model m = pair_model(bowl, g, 1.0, 0.4 * 0.01 * Mat3::Identity());
  Simulator sim(m, triangles());
  ASSERT_TRUE(sim.warnings().empty());
  State s = posed(m, Vec3(0.15, 0.05, 0.15), Quat::Identity());
  double far = 0.0, near = 1.0, gmin = 0.0, zmin = 1.0;
  bool landed = false;
  while (s.t < 2.0 - 1e-12) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    for (const Contact& c : sim.contacts()) gmin = std::min(gmin, c.gap);
    landed = landed || (!sim.contacts().empty() && s.r[0].z() < -0.2);
    if (landed) {
      far = std::max(far, s.r[0].norm());
      near = std::min(near, s.r[0].norm());
    }
    zmin = std::min(zmin, s.r[0].z());
  }
  std::printf(
      "ball in bowl, 2 s: centre distance from the bowl's centre in [%.4f, %.4f] (sphere: "
      "0.35), lowest z %.4f, deepest contact %.1e m, now at (%.3f %.3f %.3f)\n",
      near, far, zmin, gmin, s.r[0].x(), s.r[0].y(), s.r[0].z());
  EXPECT_LE(far, 0.35 + 2e-3);
  EXPECT_GE(near, 0.35 - 1e-2);
  EXPECT_GE(zmin, -0.35 - 2e-3);
  EXPECT_LE(s.r[0].z(), -0.3);  // inside the bowl, far below the hull's top
  EXPECT_GE(gmin, -5e-3);
}
