#pragma once
// Convex polyhedra (the convex hulls of triangle meshes, computed once per geometry) and their
// contact manifold, for mesh-mesh pairs (docs/collision.md, "Mesh-mesh pairs"): separating axes
// over the face normals and the edge-direction pairs (exact penetration depth for polyhedra),
// then the incident face clipped against the reference face (the box-box manifold generalized to
// convex polygons), or one point between the two supporting edges.
#include <array>
#include <vector>

#include "moreau/collision/narrowphase.hpp"
#include "moreau/model/error.hpp"

namespace moreau {

struct Polyhedron {
  struct Face {
    Vec3 normal;            // outward unit normal (local)
    double offset = 0.0;    // normal . x = offset on the face
    std::vector<int> loop;  // vertex indices, counter-clockwise about the normal
  };
  std::vector<Vec3> vertices;
  std::vector<Face> faces;
  std::vector<std::array<int, 2>> edges;  // unique undirected edges
  std::vector<int> edge_dir;              // per edge: its direction in dirs
  std::vector<Vec3> dirs;                 // unique edge directions (unit, local)
  double scale = 1.0;                     // largest vertex distance from the centroid
  Vec3 centroid = Vec3::Zero();
};

// The convex hull of a mesh's vertices (qhull), coplanar hull triangles merged into polygonal
// faces. Error: no hull (fewer than 4 non-coplanar points, or moreau built without qhull).
Result<Polyhedron> hull_polyhedron(const MeshData& mesh);

// Contacts (gap < margin) of two placed polyhedra, normal from a to b; appended to out.
void collide_polyhedra(const Polyhedron& a, const Pose& Xa, const Polyhedron& b, const Pose& Xb,
                       double margin, std::vector<ContactPoint>& out);

}  // namespace moreau
