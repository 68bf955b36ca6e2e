// Support functions and bounds of the primitive shapes.
#include "moreau/collision/shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moreau {

namespace {
double sgn(double x) {
  return x < 0.0 ? -1.0 : 1.0;
}  // +1 at 0: deterministic tie break
}  // namespace

Vec3 support_local(const Geometry& g, const Vec3& d) {
  switch (g.type) {
    case ShapeType::Sphere: {
      const double n = d.norm();
      return n > 0.0 ? Vec3(g.radius * d / n) : Vec3(0, 0, g.radius);
    }
    case ShapeType::Ellipsoid: {
      const Vec3 ad = g.half_extents.cwiseProduct(d);  // x = A^2 d / |A d|
      const double n = ad.norm();
      return n > 0.0 ? Vec3(g.half_extents.cwiseProduct(ad) / n) : Vec3(0, 0, g.half_extents.z());
    }
    case ShapeType::Capsule: {
      const double n = d.norm();
      const Vec3 sph = n > 0.0 ? Vec3(g.radius * d / n) : Vec3::Zero();
      return sph + Vec3(0, 0, sgn(d.z()) * g.half_length);
    }
    case ShapeType::Cylinder: {
      const double n = std::sqrt(d.x() * d.x() + d.y() * d.y());  // not std::hypot: slow in glibc
      const Vec3 rim =
          n > 0.0 ? Vec3(g.radius * d.x() / n, g.radius * d.y() / n, 0.0) : Vec3::Zero();
      return rim + Vec3(0, 0, sgn(d.z()) * g.half_length);
    }
    case ShapeType::Box:
      return Vec3(sgn(d.x()) * g.half_extents.x(), sgn(d.y()) * g.half_extents.y(),
                  sgn(d.z()) * g.half_extents.z());
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh: {
      const auto& v = g.mesh->vertices;
      int best = 0;
      double hb = -std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < v.size(); ++i) {
        const double h = v[i].dot(d);
        if (h > hb) hb = h, best = static_cast<int>(i);
      }
      return v[best];
    }
    case ShapeType::Plane:
    case ShapeType::HeightField:
      break;
  }
  return Vec3::Zero();
}

Vec3 support(const PlacedShape& s, const Vec3& d) {
  if (s.tri) {
    int best = 0;
    for (int i = 1; i < s.ntri; ++i)
      if (s.tri[i].dot(d) > s.tri[best].dot(d)) best = i;
    return s.tri[best];
  }
  return s.X.p + s.R * support_local(*s.g, s.R.transpose() * d);
}

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

}  // namespace moreau
