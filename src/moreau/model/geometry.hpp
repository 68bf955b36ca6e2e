#pragma once
// Collision geometry attached to a body (or to the world) with a local pose, and its material.
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "moreau/math/types.hpp"
#include "moreau/model/error.hpp"

namespace moreau {

enum class ShapeType : uint8_t {
  Plane,         // half-space z <= 0 of the geometry frame (normal +z)
  Sphere,        // radius
  Capsule,       // radius, half_length along local z
  Cylinder,      // radius, half_length along local z
  Box,           // half_extents
  Ellipsoid,     // half_extents (semi-axes)
  ConvexMesh,    // convex hull of mesh->vertices
  TriangleMesh,  // non-convex triangle soup mesh->vertices / mesh->triangles
  HeightField,   // elevation grid hfield (docs/collision.md, "Height fields")
};

const char* shape_name(ShapeType t);

struct MeshData {
  std::string source;  // file it came from, for messages
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;  // outward CCW for hulls; arbitrary for soups
  // A convex hull's vertex graph (CSR: vertex i's neighbours are neighbors[neighbor_start[i] ..
  // neighbor_start[i + 1])), for the support function's hill climb; empty for soups and for hulls
  // given by their triangles.
  std::vector<int> neighbor_start, neighbors;
  // With the graph: the triangles at each vertex (CSR, like the neighbours), for the facet walk of
  // two hulls' penetration depth (docs/collision.md, "Hull-hull pairs").
  std::vector<int> triangle_start, vertex_triangles;
  // Where the climb starts: the vertices farthest along the 6 axes and 8 cube diagonals.
  std::vector<int> climb_starts;
};

// A height field (MuJoCo's hfield): a grid of nrow x ncol points over [-rx, rx] x [-ry, ry] of
// the geometry frame, point (r, c) at x = -rx + 2 rx c / (ncol - 1), y = -ry + 2 ry r / (nrow - 1),
// z = elevation_scale * elevation[r * ncol + c]; each cell is split along its (r, c)-(r+1, c+1)
// diagonal into two triangles, each the top of a prism down to z = -base (a solid terrain block).
struct HeightFieldData {
  std::string source;  // file or element it came from, for messages
  int nrow = 0, ncol = 0;
  double rx = 0.0, ry = 0.0, elevation_scale = 0.0, base = 0.0;  // MJCF size="rx ry elev base"
  std::vector<double> elevation;  // nrow * ncol values in [0, 1], row-major
  double height(int r, int c) const { return elevation_scale * elevation[r * ncol + c]; }
  Vec3 point(int r, int c) const {
    return {-rx + 2.0 * rx * c / (ncol - 1), -ry + 2.0 * ry * r / (nrow - 1), height(r, c)};
  }
};

// A height field from raw elevation values (empty: all zeros), normalized to [0, 1] by their
// minimum and maximum as MuJoCo does (a constant field becomes all zeros). Error (naming
// `element`): fewer than 2 rows or columns, a count other than nrow * ncol, a non-finite value,
// or a size that is not positive.
Result<std::shared_ptr<const HeightFieldData>> make_height_field(int nrow, int ncol,
                                                                 const std::array<double, 4>& size,
                                                                 std::vector<double> elevation,
                                                                 const std::string& element);

struct Material {
  double friction = 0.5;     // Coulomb mu >= 0
  double restitution = 0.0;  // Newton epsilon in [0, 1]
  // Compliant point contact of the SAP solver (Castro et al. 2023, eq. 2): stiffness k [N/m]
  // (+inf: rigid, i.e. unset) and dissipation time scale tau_d [s] (NaN: unset). Other solvers
  // ignore both (docs/collision.md, docs/solvers.md `sap`).
  double stiffness = std::numeric_limits<double>::infinity();
  double tau_d = std::numeric_limits<double>::quiet_NaN();
};

struct Geometry {
  std::string name;
  int body = -1;  // -1: attached to the world
  ShapeType type = ShapeType::Sphere;
  Pose pose;  // geometry frame in the body (CoM) frame, or in the world
  double radius = 0.0;
  double half_length = 0.0;
  Vec3 half_extents = Vec3::Zero();
  std::shared_ptr<const MeshData> mesh;
  std::shared_ptr<const HeightFieldData> hfield;  // HeightField only
  Material material;
  uint32_t group = 1;           // collision group bits
  uint32_t mask = 0xffffffffu;  // collides with geometries whose group & mask != 0 (both ways)
  // MuJoCo's rule (contype/conaffinity): where both geometries have it, one direction of
  // group & mask suffices (docs/model-import.md).
  bool filter_either = false;
};

}  // namespace moreau
