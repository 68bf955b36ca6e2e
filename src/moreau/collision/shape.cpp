// Bounds of the primitive shapes (their support functions are inline in shape.hpp).
#include "moreau/collision/shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moreau {

void local_bounds(const Geometry& g, Vec3* center, Vec3* half) {
  *center = Vec3::Zero();
  switch (g.type) {
    case ShapeType::Plane:
      *half = Vec3::Constant(std::numeric_limits<double>::infinity());
      return;
    case ShapeType::Sphere:
      *half = Vec3::Constant(g.radius);
      return;
    case ShapeType::Capsule:
      *half = Vec3(g.radius, g.radius, g.radius + g.half_length);
      return;
    case ShapeType::Cylinder:
      *half = Vec3(g.radius, g.radius, g.half_length);
      return;
    case ShapeType::Box:
    case ShapeType::Ellipsoid:
      *half = g.half_extents;
      return;
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh: {
      Vec3 lo = g.mesh->vertices[0], hi = lo;
      for (const Vec3& v : g.mesh->vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
      }
      *center = 0.5 * (lo + hi);
      *half = 0.5 * (hi - lo);
      return;
    }
    case ShapeType::HeightField: {
      const HeightFieldData& h = *g.hfield;
      const double top =
          h.elevation_scale * *std::max_element(h.elevation.begin(), h.elevation.end());
      *center = Vec3(0.0, 0.0, 0.5 * (top - h.base));
      *half = Vec3(h.rx, h.ry, 0.5 * (top + h.base));
      return;
    }
  }
}

void tight_world_aabb(const Geometry& g, const Vec3& center, const Vec3& half, const Pose& X,
                      const Mat3& R, Vec3* lo, Vec3* hi) {
  const Vec3 c = X.p + R * center;
  Vec3 h;
  switch (g.type) {
    case ShapeType::Sphere:
      h = Vec3::Constant(g.radius);
      break;
    case ShapeType::Capsule:
      h = g.half_length * R.col(2).cwiseAbs() + Vec3::Constant(g.radius);
      break;
    case ShapeType::Cylinder: {
      // Per world axis k: the disc of radius r spans r sqrt(1 - a_k^2) about the axis a.
      const Vec3 a = R.col(2);
      for (int k = 0; k < 3; ++k)
        h[k] =
            g.half_length * std::abs(a[k]) + g.radius * std::sqrt(std::max(0.0, 1.0 - a[k] * a[k]));
      break;
    }
    case ShapeType::Ellipsoid:
      // Support of the ellipsoid along e_k: sqrt(sum_j (R_kj h_j)^2).
      h = (R * half.asDiagonal()).rowwise().norm();
      break;
    default:
      h = R.cwiseAbs() * half;
      break;
  }
  *lo = c - h;
  *hi = c + h;
}

double bounding_radius(const Geometry& g, const Vec3& half) {
  switch (g.type) {
    case ShapeType::Sphere:
      return g.radius;
    case ShapeType::Capsule:
      return g.radius + g.half_length;
    case ShapeType::Ellipsoid:
      return half.maxCoeff();
    default:
      return half.norm();
  }
}

double origin_radius(const Geometry& g) {
  switch (g.type) {
    case ShapeType::Sphere:
      return g.radius;
    case ShapeType::Capsule:
      return g.radius + g.half_length;
    case ShapeType::Cylinder:
      return std::sqrt(g.radius * g.radius + g.half_length * g.half_length);
    case ShapeType::Box:
      return g.half_extents.norm();
    case ShapeType::Ellipsoid:
      return g.half_extents.maxCoeff();
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh: {
      double r2 = 0.0;
      for (const Vec3& v : g.mesh->vertices) r2 = std::max(r2, v.squaredNorm());
      return std::sqrt(r2);
    }
    case ShapeType::Plane:
    case ShapeType::HeightField:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace moreau
