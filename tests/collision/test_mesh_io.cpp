// Mesh files (assimp), convex hulls (qhull), and the errors for bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "moreau/collision/mesh_bvh.hpp"
#include "moreau/collision/mesh_io.hpp"
#include "moreau/collision/narrowphase.hpp"
#include "moreau/collision/shape.hpp"
#include "moreau/model/model.hpp"

namespace moreau {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(MOREAU_BINARY_DIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

const char* kCubeObj =
    "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
    "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 "
    "1 5\nf 4 5 8\n";

TEST(MeshIo, LoadsObjCube) {
  auto m = load_mesh(write_file("test_cube.obj", kCubeObj));
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ((*m)->vertices.size(), 8u);
  EXPECT_EQ((*m)->triangles.size(), 12u);
}

TEST(MeshIo, LoadsAsciiStl) {
  auto m = load_mesh(write_file("test_tet.stl",
                                "solid t\nfacet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 "
                                "1 0\nvertex 1 0 0\nendloop\nendfacet\n"
                                "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 "
                                "0\nvertex 0 0 1\nendloop\nendfacet\nendsolid t\n"));
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ((*m)->triangles.size(), 2u);
}

TEST(MeshIo, MissingFileNamesIt) {
  auto m = load_mesh("/nonexistent/dir/part.stl");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message().find("/nonexistent/dir/part.stl"), std::string::npos);
}

TEST(MeshIo, GarbageFileIsAnError) {
  auto m = load_mesh(write_file("test_garbage.obj", "this is not a mesh\n"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message().find("test_garbage.obj"), std::string::npos);
}

TEST(MeshIo, HullOfCubeWithInteriorPoints) {
  std::vector<Vec3> pts;
  for (int k = 0; k < 8; ++k) pts.emplace_back(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
  for (int k = 0; k < 20; ++k) pts.emplace_back(0.1 * k - 1.0 + 0.05, 0.3, -0.2);  // inside
  auto h = convex_hull(pts, "points");
  ASSERT_TRUE(h.ok()) << h.error().message();
  EXPECT_EQ((*h)->vertices.size(), 8u);
  EXPECT_EQ((*h)->triangles.size(), 12u);
  // outward orientation: every face normal points away from the centroid
  for (const auto& t : (*h)->triangles) {
    const auto& v = (*h)->vertices;
    const Vec3 n = (v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]);
    EXPECT_GT(n.dot(v[t[0]]), 0.0);
  }
  // support of the hull geometry agrees with the cube
  Geometry g;
  g.type = ShapeType::ConvexMesh;
  g.mesh = *h;
  EXPECT_NEAR(support_local(g, Vec3(0.3, -0.2, 0.9)).dot(Vec3(0.3, -0.2, 0.9)), 1.4, 1e-15);
}

TEST(MeshIo, DegenerateHullsAreErrors) {
  auto h = convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, "tri.obj");
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.error().message().find("tri.obj"), std::string::npos);
  EXPECT_NE(h.error().message().find("4 non-coplanar"), std::string::npos);
  h = convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(2, 3, 0)},
                  "flat.stl");
  EXPECT_FALSE(h.ok());
  h = convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, NAN)}, "nan.stl");
  EXPECT_FALSE(h.ok());
}

TEST(GeometryValidation, BadSizesAndMaterialsNameTheElement) {
  Geometry g;
  g.name = "ball";
  g.type = ShapeType::Sphere;
  g.radius = -1.0;
  auto e = validate_geometry(g, 1, "geometry 'ball'");
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message().find("radius"), std::string::npos);
  g.radius = 0.1;
  g.material.friction = -0.1;
  e = validate_geometry(g, 1, "geometry 'ball'");
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message().find("friction"), std::string::npos);
  g.material.friction = 0.5;
  g.material.restitution = 1.5;
  e = validate_geometry(g, 1, "geometry 'ball'");
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message().find("restitution"), std::string::npos);
  Geometry b;
  b.type = ShapeType::Box;
  b.half_extents = Vec3(0.1, -0.2, 0.1);
  EXPECT_TRUE(validate_geometry(b, 1, "geometry 'b'").has_value());
}

// Triangle mesh against a sphere: BVH and brute force agree; a sphere above a face of the cube.
TEST(MeshCollision, SphereOnTriangleMeshCube) {
  auto m = load_mesh(write_file("test_cube2.obj", kCubeObj));
  ASSERT_TRUE(m.ok());
  Geometry mesh;
  mesh.type = ShapeType::TriangleMesh;
  mesh.mesh = *m;
  Geometry ball;
  ball.type = ShapeType::Sphere;
  ball.radius = 0.5;
  const Pose Xs{Vec3(0.2, -0.1, 1.5 - 0.01), Quat::Identity()};
  std::vector<ContactPoint> out;
  collide({&mesh, Pose{}, nullptr}, {&ball, Xs, nullptr}, 1e-3, out);
  ASSERT_FALSE(out.empty());
  double g = 1e9;
  for (const auto& c : out) g = std::min(g, c.gap);
  EXPECT_NEAR(g, -0.01, 1e-9);
  MeshBvh bvh(**m);
  std::vector<ContactPoint> out2;
  collide({&mesh, Pose{}, &bvh}, {&ball, Xs, nullptr}, 1e-3, out2);
  EXPECT_EQ(out.size(), out2.size());
}

// The support function's climb over a hull's vertex graph finds the maximum of d.x that a scan of
// every vertex finds, on a hull of 2000 points near a squashed sphere (hundreds of hull vertices,
// many nearly coplanar), for 2000 directions; without the graph the scan runs.
TEST(MeshIo, HullSupportClimbEqualsTheScanOfEveryVertex) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> gauss;
  std::vector<Vec3> pts;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 x = Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized();
    pts.push_back(x.cwiseProduct(Vec3(0.3, 0.1, 0.05)) * (1.0 + 1e-3 * gauss(rng)));
  }
  auto hull = convex_hull(pts, "test points");
  ASSERT_TRUE(hull.ok()) << hull.error().message();
  const MeshData& m = **hull;
  ASSERT_EQ(m.neighbor_start.size(), m.vertices.size() + 1);
  ASSERT_GT(m.vertices.size(), 200u);
  Geometry g;
  g.type = ShapeType::ConvexMesh;
  g.mesh = *hull;
  Geometry scan = g;
  auto bare = std::make_shared<MeshData>(m);
  bare->neighbor_start.clear();
  scan.mesh = bare;
  for (int k = 0; k < 2000; ++k) {
    const Vec3 d(gauss(rng), gauss(rng), gauss(rng));
    double best = -1e300;
    for (const Vec3& v : m.vertices) best = std::max(best, v.dot(d));
    EXPECT_EQ(support_local(g, d).dot(d), best) << k;
    EXPECT_EQ(support_local(scan, d).dot(d), best) << k;
    // From any vertex (the last query's, PlacedShape::climb): the same maximum.
    int from = static_cast<int>(rng() % m.vertices.size());
    EXPECT_EQ(support_local(g, d, &from).dot(d), best) << k;
    EXPECT_EQ(m.vertices[from].dot(d), best) << k;  // it reports where it ended
  }
}

}  // namespace
}  // namespace moreau
