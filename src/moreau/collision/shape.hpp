#pragma once
// A geometry placed in the world: support function h(d) = max_{x in shape} d.x (convex shapes),
// world bounding boxes. Internal to the collision room (and its tests).
#include <cmath>
#include <limits>

#include "moreau/model/geometry.hpp"

namespace moreau {

struct PlacedShape {
  const Geometry* g = nullptr;
  Pose X;                     // world pose of the geometry frame
  Mat3 R = Mat3::Identity();  // X.R()
  // Non-null: the shape is the convex hull of these ntri world points (3: a mesh triangle, 6: a
  // height-field prism), g is the mesh or height field.
  const Vec3* tri = nullptr;
  int ntri = 3;
  // Hulls: the vertex the last support query ended on, where the next one starts its climb
  // (successive queries of one pair ask nearby directions); -1: none yet.
  mutable int climb = -1;
  Vec3 tri_center() const {
    Vec3 c = Vec3::Zero();
    for (int i = 0; i < ntri; ++i) c += tri[i];
    return c / ntri;
  }
};

inline PlacedShape place(const Geometry& g, const Pose& X) {
  return {&g, X, X.R(), nullptr, 3};
}

// +1 at 0: a deterministic tie break for the kinked supports (box, capsule and cylinder caps).
inline double support_sign(double x) {
  return x < 0.0 ? -1.0 : 1.0;
}

// Local-frame support of a convex geometry. Inline: the general convex path calls it some 30,000
// times per humanoid100 step.
inline Vec3 support_local(const Geometry& g, const Vec3& d, int* climb = nullptr) {
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
      return sph + Vec3(0, 0, support_sign(d.z()) * g.half_length);
    }
    case ShapeType::Cylinder: {
      const double n = norm2(d.x(), d.y());
      const Vec3 rim =
          n > 0.0 ? Vec3(g.radius * d.x() / n, g.radius * d.y() / n, 0.0) : Vec3::Zero();
      return rim + Vec3(0, 0, support_sign(d.z()) * g.half_length);
    }
    case ShapeType::Box:
      return Vec3(support_sign(d.x()) * g.half_extents.x(),
                  support_sign(d.y()) * g.half_extents.y(),
                  support_sign(d.z()) * g.half_extents.z());
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh: {
      const MeshData& m = *g.mesh;
      const auto& v = m.vertices;
      int best = 0;
      double hb = -std::numeric_limits<double>::infinity();
      if (m.neighbor_start.size() != v.size() + 1) {  // no vertex graph: every vertex
        for (size_t i = 0; i < v.size(); ++i) {
          const double h = v[i].dot(d);
          if (h > hb) hb = h, best = static_cast<int>(i);
        }
        return v[best];
      }
      // A hull's vertex graph: climb from the best of its axis and diagonal extremes to a vertex
      // no neighbour beats, which on a convex polytope is a maximum of d.x (thousands of vertices
      // on a robot's STL hulls).
      if (climb && *climb >= 0 && *climb < static_cast<int>(v.size())) {
        best = *climb;
        hb = v[best].dot(d);
      } else {
        for (const int s : m.climb_starts)
          if (const double h = v[s].dot(d); h > hb) hb = h, best = s;
      }
      for (int at = -1; at != best;) {
        at = best;
        for (int k = m.neighbor_start[at]; k < m.neighbor_start[at + 1]; ++k) {
          const int n = m.neighbors[k];
          const double h = v[n].dot(d);
          if (h > hb) hb = h, best = n;
        }
      }
      if (climb) *climb = best;
      return v[best];
    }
    case ShapeType::Plane:
    case ShapeType::HeightField:
      break;
  }
  return Vec3::Zero();
}

// Farthest point of the shape along the (not necessarily unit) world direction d. Planes, height
// fields and triangle meshes are not convex shapes: callers never ask them (their pieces use
// `tri`; a triangle mesh's support is that of its convex hull).
inline Vec3 support(const PlacedShape& s, const Vec3& d) {
  if (s.tri) {
    int best = 0;
    for (int i = 1; i < s.ntri; ++i)
      if (s.tri[i].dot(d) > s.tri[best].dot(d)) best = i;
    return s.tri[best];
  }
  return s.X.p + s.R * support_local(*s.g, s.R.transpose() * d, &s.climb);
}

// h(d) = d . support(d)
inline double support_value(const PlacedShape& s, const Vec3& d) {
  return d.dot(support(s, d));
}

// Local bounding box (half extents about `center`) of a bounded geometry; planes get infinity.
void local_bounds(const Geometry& g, Vec3* center, Vec3* half);
// World AABB of local bounds placed at X.
inline void world_aabb(const Vec3& center, const Vec3& half, const Pose& X, Vec3* lo, Vec3* hi) {
  const Mat3 A = X.R().cwiseAbs();
  const Vec3 c = X * center, h = A * half;
  *lo = c - h;
  *hi = c + h;
}

// World AABB of geometry g placed at X (rotation R = X.R()), tight for every shape: a sphere's
// box does not grow when it spins, a capsule's is its segment's box grown by the radius, a
// cylinder's and an ellipsoid's are exact (Eberly, "Bounding boxes"); boxes and meshes use the
// local box rotated (world_aabb).
void tight_world_aabb(const Geometry& g, const Vec3& center, const Vec3& half, const Pose& X,
                      const Mat3& R, Vec3* lo, Vec3* hi);
// Radius of a sphere about X * center that contains the geometry.
double bounding_radius(const Geometry& g, const Vec3& half);
// max |x| over the geometry in its own frame (about its origin, not its centre): how far a point of
// it moves when it turns by |dR| (the pair cache's reach, docs/collision.md). Planes and height
// fields: infinity.
double origin_radius(const Geometry& g);

// True for shapes whose support point is unique in every direction (strictly convex).
inline bool strictly_convex(ShapeType t) {
  return t == ShapeType::Sphere || t == ShapeType::Ellipsoid;
}

}  // namespace moreau
