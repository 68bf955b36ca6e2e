// Mesh-mesh pairs through the convex hulls of both meshes (docs/collision.md, "Mesh-mesh pairs"):
// a cube written as a mesh resting on another gives the contacts and the normal impulse of two
// box primitives; an icosphere rests on a flat box mesh.
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
using moreau::test::face_down;
using moreau::test::icosphere;

namespace {

// A static lower cube (world) and a free upper cube of side 1 resting on it (gap 0), both as
// boxes or both as meshes.
Model stacked_cubes(bool mesh) {
  ModelBuilder mb(mesh ? "mesh cubes" : "box cubes");
  Body b;
  b.name = "top";
  b.mass = 2.0;
  b.inertia = (2.0 / 6.0) * Mat3::Identity();
  mb.add_body(b);
  for (int body : {-1, 0}) {
    Geometry g;
    g.name = body < 0 ? "lower" : "upper";
    g.body = body;
    g.type = mesh ? ShapeType::TriangleMesh : ShapeType::Box;
    g.half_extents = Vec3::Constant(0.5);
    if (mesh) g.mesh = box_mesh(Vec3::Constant(0.5));
    mb.add_geometry(g);
  }
  return *mb.build();
}

State at(const Model& m, const Vec3& r, const Quat& q) {
  State s = State::zeros(m.num_bodies());
  s.r[0] = r;
  s.q[0] = q;
  return s;
}

}  // namespace

TEST(MeshMesh, CubeMeshesMatchBoxPrimitives) {
  // Resting (gap 0), then tilted slightly and penetrating, so that the clipped manifold matters.
  const Quat tilt(Eigen::AngleAxisd(0.02, Vec3(1, 2, 0).normalized()));
  for (const auto& [r, q] :
       {std::pair{Vec3(0, 0, 1.0), Quat::Identity()}, std::pair{Vec3(0.2, -0.1, 0.995), tilt}}) {
    const Model boxes = stacked_cubes(false), meshes = stacked_cubes(true);
    SimSettings st;
    st.solver = "pgs";
    st.solver_settings.tol = 1e-14;
    st.solver_settings.max_iters = 100000;
    st.warm_start = false;
    Simulator sb(boxes, st), sm(meshes, st);
    ASSERT_TRUE(sm.warnings().empty());
    State xb = at(boxes, r, q), xm = at(meshes, r, q);
    ASSERT_TRUE(sb.step(xb)) << sb.error();
    ASSERT_TRUE(sm.step(xm)) << sm.error();
    std::vector<Contact> cb = sb.contacts(), cm = sm.contacts();
    ASSERT_EQ(cb.size(), cm.size());
    ASSERT_GE(cb.size(), 3u);  // resting: 4 corners; tilted: 3 below the margin
    test::expect_same_contacts(cb, cm);
    double nb = 0.0, nm = 0.0;
    for (size_t k = 0; k < cb.size(); ++k) {
      nb += sb.solution().lambda[3 * k + 2];
      nm += sm.solution().lambda[3 * k + 2];
    }
    std::printf("%zu contacts; total normal impulse: boxes %.15g, meshes %.15g N s\n", cb.size(),
                nb, nm);
    EXPECT_GT(nb, 0.0);
    EXPECT_NEAR(nb, nm, 1e-9);
    EXPECT_LE((xb.r[0] - xm.r[0]).norm(), 1e-9);
  }
}

TEST(MeshMesh, IcosphereRestsOnAFlatBoxMesh) {
  const std::shared_ptr<const MeshData> ball = icosphere(0.1, 2);
  // Turn the sphere so that one of its faces is down (a stable rest), and put it on z = 0.
  double low = 0.0;
  const Quat q = face_down(*ball, &low);
  ModelBuilder mb("icosphere on a box mesh");
  Body b;
  b.name = "ball";
  b.mass = 1.0;
  b.inertia = 0.4 * 0.01 * Mat3::Identity();
  mb.add_body(b);
  Geometry floor;
  floor.name = "floor";
  floor.body = -1;
  floor.type = ShapeType::TriangleMesh;
  floor.mesh = box_mesh(Vec3(5, 5, 0.1));
  floor.pose.p = Vec3(0, 0, -0.1);
  mb.add_geometry(floor);
  Geometry g;
  g.name = "ball";
  g.body = 0;
  g.type = ShapeType::TriangleMesh;
  g.mesh = ball;
  mb.add_geometry(g);
  const Model m = *mb.build();
  const Vec3 r0(0.3, -0.2, -low);
  State s = at(m, r0, q);
  Simulator sim(m, SimSettings{});
  double vmax = 0.0;
  while (s.t < 2.0) {
    ASSERT_TRUE(sim.step(s)) << sim.error();
    vmax = std::max(vmax, s.u[0].norm());
  }
  const double angle = quat_log(s.q[0] * q.conjugate()).norm();
  std::printf("icosphere 2 s: displacement %.3e m, rotation %.3e rad, max speed %.3e m/s\n",
              (s.r[0] - r0).norm(), angle, vmax);
  EXPECT_FALSE(sim.contacts().empty());
  EXPECT_LE((s.r[0] - r0).norm(), 1e-4);
  EXPECT_LE(angle, 1e-3);
  EXPECT_LE(vmax, 1e-2);
}
