#pragma once
// A closed, consistently oriented triangle mesh (a watertight 2-manifold surface) with what the
// triangle-level mesh-mesh contacts need (docs/collision.md, "Mesh-mesh pairs"): outward face
// normals, the vertices' neighbours, the edges with their two faces, the angle-weighted
// pseudo-normals of vertices and edges (Baerentzen & Aanaes 2005) for the sign of the distance.
#include <array>
#include <vector>

#include "moreau/collision/mesh_bvh.hpp"
#include "moreau/model/error.hpp"
#include "moreau/model/geometry.hpp"

namespace moreau {

struct ClosedMesh {
  struct Edge {
    int v0 = 0, v1 = 0;  // f0 runs v0 -> v1, f1 runs v1 -> v0 (outward orientation)
    int f0 = 0, f1 = 0;
    bool convex = false;  // dihedral angle < pi (seen from outside), not flat
  };
  std::vector<Vec3> vertices;                    // the mesh's vertices (local frame)
  std::vector<std::array<int, 3>> triangles;     // same triangles, reoriented outward
  std::vector<Vec3> face_normal;                 // unit, outward
  std::vector<std::array<int, 3>> face_edges;    // edge of (t[0],t[1]), (t[1],t[2]), (t[2],t[0])
  std::vector<Edge> edges;                       // unique undirected edges
  std::vector<int> neighbor_start, neighbors;    // CSR: the vertices joined to each by an edge
  std::vector<int> corner_start, corner_faces;   // CSR: the triangles at each vertex
  std::vector<int> used;                         // vertices that some triangle references
  std::vector<Vec3> vertex_pseudo, edge_pseudo;  // pseudo-normals (not normalized)
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();     // local bounds of the used vertices
  double scale = 1.0;                            // largest half extent of the local bounds
  double min_half = 1.0;                         // smallest half extent of the local bounds
};

// Topology and normals of a mesh for triangle-level contacts. The triangles may come in any
// orientation: they are reoriented consistently by walking across the edges, outward by the sign
// of the enclosed volume. Errors (element = `name`): an edge not shared by exactly two triangles
// (open or non-manifold surface), a non-orientable surface, a degenerate (zero-area) triangle.
Result<ClosedMesh> make_closed_mesh(const MeshData& mesh, const std::string& name);

// Closest point of triangle (a, b, c) to p (Ericson, "Real-Time Collision Detection", 5.1.5).
// *feature: 0..2 the vertex a, b, c; 3..5 the edge ab, bc, ca (interior); 6 the face interior.
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, int* feature);

// Signed distance of the local point p to the closed mesh (negative inside): the closest
// triangle through the tree, the sign from the pseudo-normal of the closest feature (Baerentzen &
// Aanaes 2005). *closest (optional) receives the closest surface point.
double signed_distance(const ClosedMesh& m, const MeshBvh& bvh, const Vec3& p,
                       Vec3* closest = nullptr);

}  // namespace moreau
