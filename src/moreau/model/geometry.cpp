#include "moreau/model/geometry.hpp"

namespace moreau {

const char* shape_name(ShapeType t) {
  switch (t) {
    case ShapeType::Plane:
      return "plane";
    case ShapeType::Sphere:
      return "sphere";
    case ShapeType::Capsule:
      return "capsule";
    case ShapeType::Cylinder:
      return "cylinder";
    case ShapeType::Box:
      return "box";
    case ShapeType::Ellipsoid:
      return "ellipsoid";
    case ShapeType::ConvexMesh:
      return "convex_mesh";
    case ShapeType::TriangleMesh:
      return "mesh";
  }
  return "?";
}

}  // namespace moreau
