#pragma once
// Collision geometry attached to a body (or to the world) with a local pose, and its material.
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "moreau/math/types.hpp"

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
};

const char* shape_name(ShapeType t);

struct MeshData {
  std::string source;  // file it came from, for messages
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;  // outward CCW for hulls; arbitrary for soups
};

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
  Material material;
  uint32_t group = 1;           // collision group bits
  uint32_t mask = 0xffffffffu;  // collides with geometries whose group & mask != 0 (both ways)
};

}  // namespace moreau
