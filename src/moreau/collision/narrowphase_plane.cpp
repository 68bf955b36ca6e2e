// Plane (half-space z <= 0 of its frame) against every other shape: exact, vertex-based manifolds.
#include <cmath>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {

namespace {
struct HalfSpace {
  Vec3 n;
  double offset;
  double gap(const Vec3& x) const { return n.dot(x) - offset; }
  // Contact of a point x of B at distance `radius` below x's surface point.
  void push(const Vec3& x, double radius, uint32_t feature, double margin,
            std::vector<ContactPoint>& out) const {
    const double h = gap(x);
    const double g = h - radius;
    if (g >= margin) return;
    out.push_back({x - h * n, n, g, feature});
  }
};

// Cylinder caps: per cap the deepest rim point (feature k) and 4 body-fixed rim points
// (features 2 + 4k + i), so that a standing cylinder has a support polygon.
void plane_cylinder(const HalfSpace& P, const PlacedShape& b, double margin,
                    std::vector<ContactPoint>& out) {
  const Geometry& g = *b.g;
  const Vec3 a = b.R.col(2), u = b.R.col(0), w = b.R.col(1);
  Vec3 lat = -(P.n - P.n.dot(a) * a);  // rim direction towards the plane
  const double ln = lat.norm();
  for (int k = 0; k < 2; ++k) {
    const Vec3 c = b.X.p + (k == 0 ? -g.half_length : g.half_length) * a;
    if (ln > 1e-9) P.push(c + g.radius * lat / ln, 0.0, k, margin, out);
    const Vec3 rim[4] = {u, w, -u, -w};
    for (int i = 0; i < 4; ++i) {
      if (ln > 1e-9 && rim[i].dot(lat) / ln > 1.0 - 1e-12) continue;  // same point as the deepest
      P.push(c + g.radius * rim[i], 0.0, 2 + 4 * k + i, margin, out);
    }
  }
}
}  // namespace

void collide_plane(const PlacedShape& plane, const PlacedShape& b, double margin,
                   std::vector<ContactPoint>& out) {
  const Vec3 n = plane.R.col(2);
  const HalfSpace P{n, n.dot(plane.X.p)};
  const Geometry& g = *b.g;
  switch (g.type) {
    case ShapeType::Plane:
    case ShapeType::HeightField:  // both static in practice: no contacts (docs/collision.md)
      return;
    case ShapeType::Sphere:
      return P.push(b.X.p, g.radius, 0, margin, out);
    case ShapeType::Capsule: {
      const Vec3 a = b.R.col(2);
      P.push(b.X.p - g.half_length * a, g.radius, 0, margin, out);
      P.push(b.X.p + g.half_length * a, g.radius, 1, margin, out);
      return;
    }
    case ShapeType::Cylinder:
      return plane_cylinder(P, b, margin, out);
    case ShapeType::Box:
      for (uint32_t k = 0; k < 8; ++k) {
        const Vec3 s((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0);
        P.push(b.X * Vec3(s.cwiseProduct(g.half_extents)), 0.0, k, margin, out);
      }
      return;
    case ShapeType::Ellipsoid:
      return P.push(support(b, -n), 0.0, 0, margin, out);
    case ShapeType::ConvexMesh:
    case ShapeType::TriangleMesh: {
      const auto& v = g.mesh->vertices;
      for (size_t k = 0; k < v.size(); ++k)
        P.push(b.X * v[k], 0.0, static_cast<uint32_t>(k), margin, out);
      return;
    }
  }
}

}  // namespace moreau
