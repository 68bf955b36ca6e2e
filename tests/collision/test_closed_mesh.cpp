// Closed meshes for triangle-level mesh-mesh contacts (closed_mesh.hpp): orientation repaired
// outward, open and non-manifold surfaces refused, the signed distance against the analytic
// distance to a box, and the crossed-edges contact of two cubes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "moreau/collision/closed_mesh.hpp"
#include "moreau/collision/narrowphase.hpp"

namespace moreau {
namespace {

// A box as a triangle soup: two triangles per face, every other face wound inward.
MeshData box_soup(const Vec3& h) {
  MeshData m;
  m.source = "box";
  for (int k = 0; k < 8; ++k)
    m.vertices.push_back(
        Vec3((k & 1 ? 1 : -1) * h.x(), (k & 2 ? 1 : -1) * h.y(), (k & 4 ? 1 : -1) * h.z()));
  const int quads[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

// Distance of p to the box [-h, h] (negative inside).
double box_distance(const Vec3& p, const Vec3& h) {
  const Vec3 q = p.cwiseAbs() - h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

TEST(ClosedMesh, SoupIsOrientedOutward) {
  const MeshData soup = box_soup(Vec3(0.5, 0.4, 0.3));
  Result<ClosedMesh> m = make_closed_mesh(soup, "box");
  ASSERT_TRUE(m) << m.error().message();
  ASSERT_EQ(m->edges.size(), 18u);
  int convex = 0;
  for (size_t t = 0; t < m->triangles.size(); ++t) {
    const auto& tr = m->triangles[t];
    const Vec3 c = (m->vertices[tr[0]] + m->vertices[tr[1]] + m->vertices[tr[2]]) / 3.0;
    EXPECT_GT(m->face_normal[t].dot(c), 0.29) << t;  // outward, and axis-aligned
    EXPECT_NEAR(m->face_normal[t].cwiseAbs().maxCoeff(), 1.0, 1e-15) << t;
  }
  for (const auto& e : m->edges) convex += e.convex;
  EXPECT_EQ(convex, 12);  // the 6 face diagonals are flat
  for (int v = 0; v < 8; ++v)
    EXPECT_EQ(m->neighbor_start[v + 1] - m->neighbor_start[v] >= 3, true) << v;
}

TEST(ClosedMesh, OpenAndNonManifoldSurfacesAreRefused) {
  MeshData open = box_soup(Vec3::Constant(0.5));
  open.triangles.pop_back();
  Result<ClosedMesh> a = make_closed_mesh(open, "geometry 'lid'");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message().find("geometry 'lid'"), std::string::npos);
  EXPECT_NE(a.error().message().find("shared by 1 triangle(s)"), std::string::npos)
      << a.error().message();
  MeshData fin = box_soup(Vec3::Constant(0.5));
  fin.vertices.push_back(Vec3(2, 0, 0));
  fin.triangles.push_back({0, 1, 8});  // a fin on the edge (0, 1): three triangles share it
  Result<ClosedMesh> b = make_closed_mesh(fin, "fin");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("shared by 3 triangle(s)"), std::string::npos)
      << b.error().message();
}

TEST(ClosedMesh, SignedDistanceMatchesTheBox) {
  const Vec3 h(0.5, 0.4, 0.3);
  const MeshData soup = box_soup(h);
  const ClosedMesh m = *make_closed_mesh(soup, "box");
  const MeshBvh bvh(soup);
  uint64_t state = 12345;
  auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  double worst = 0.0;
  int inside = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p(2.0 * uniform() - 1.0, 2.0 * uniform() - 1.0, 2.0 * uniform() - 1.0);
    const double d = signed_distance(m, bvh, p), ref = box_distance(p, h);
    worst = std::max(worst, std::abs(d - ref));
    inside += ref < 0.0;
  }
  std::printf("signed distance, 2000 points (%d inside): max error %.3e m\n", inside, worst);
  EXPECT_GT(inside, 50);
  EXPECT_LE(worst, 1e-14);
  // Points on the surface (faces, edges, corners), and just off a corner and an edge, where the
  // sign comes from the vertex's and the edge's pseudo-normals.
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5, 0.1, -0.2)), 0.0, 1e-15);
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5, 0.4, 0.3)), 0.0, 1e-15);
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5, 0.4, 0.0)), 0.0, 1e-15);
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5 + 1e-6, 0.4 + 1e-6, 0.3 + 1e-6)), std::sqrt(3e-12),
              1e-16);
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5 - 1e-6, 0.4 - 1e-6, 0.3 - 1e-6)), -1e-6, 1e-15);
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5 + 1e-6, 0.4 + 2e-6, 0.1)), std::sqrt(5e-12), 1e-16);
  EXPECT_NEAR(signed_distance(m, bvh, Vec3(0.5 - 1e-6, 0.4 - 2e-6, 0.1)), -1e-6, 1e-15);
}

// Two unit cubes with crossed edges: the lower turned 45 deg about y (its top is an edge along
// y), the upper 45 deg about x (its bottom is an edge along x), the edges 0.2 mm apart. The only
// contact is the edges' closest pair: normal +z, gap 0.2 mm, at the crossing.
TEST(ClosedMesh, CrossedEdgesGiveOneEdgeEdgeContact) {
  const MeshData soup = box_soup(Vec3::Constant(0.5));
  const ClosedMesh m = *make_closed_mesh(soup, "cube");
  const MeshBvh bvh(soup);
  const double r = std::sqrt(0.5), gap = 2e-4;
  const Pose lower(Vec3(0.01, -0.02, 0.0), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY())));
  const Pose upper(Vec3(0.03, 0.04, 2 * r + gap), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX())));
  std::vector<ContactPoint> out;
  collide_closed_meshes(m, bvh, lower, m, bvh, upper, 1e-3, out);
  for (const ContactPoint& c : out)
    std::printf("point (%.6f %.6f %.6f) normal (%.4g %.4g %.4g) gap %.4e id %u\n", c.point.x(),
                c.point.y(), c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(), c.gap,
                c.feature);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LE((out[0].normal - Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_NEAR(out[0].gap, gap, 1e-12);
  EXPECT_LE((out[0].point - Vec3(0.01, 0.04, r)).norm(), 1e-12);
  EXPECT_GE(out[0].feature, 1u << 19);
  // Swapped roles: the same contact seen from the other side.
  out.clear();
  collide_closed_meshes(m, bvh, upper, m, bvh, lower, 1e-3, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LE((out[0].normal + Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_NEAR(out[0].gap, gap, 1e-12);
  EXPECT_LE((out[0].point - Vec3(0.01, 0.04, r + gap)).norm(), 1e-12);
}

}  // namespace
}  // namespace moreau
