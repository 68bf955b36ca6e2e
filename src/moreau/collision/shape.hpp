#pragma once
// A geometry placed in the world: support function h(d) = max_{x in shape} d.x (convex shapes),
// world bounding boxes. Internal to the collision room (and its tests).
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
  Vec3 tri_center() const {
    Vec3 c = Vec3::Zero();
    for (int i = 0; i < ntri; ++i) c += tri[i];
    return c / ntri;
  }
};

inline PlacedShape place(const Geometry& g, const Pose& X) {
  return {&g, X, X.R(), nullptr, 3};
}

// Farthest point of the shape along the (not necessarily unit) world direction d. Planes, height
// fields and triangle meshes are not convex shapes: callers never ask them (their pieces use
// `tri`; a triangle mesh's support is that of its convex hull).
Vec3 support(const PlacedShape& s, const Vec3& d);
// Local-frame support of a convex geometry.
Vec3 support_local(const Geometry& g, const Vec3& d);
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

// True for shapes whose support point is unique in every direction (strictly convex).
inline bool strictly_convex(ShapeType t) {
  return t == ShapeType::Sphere || t == ShapeType::Ellipsoid;
}

}  // namespace moreau
