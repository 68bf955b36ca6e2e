// Plane (half-space z <= 0 of its frame) against every other shape: exact, vertex-based manifolds;
// a mesh's vertices within the margin reduced to the corners of their support polygon.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

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

// The walk over a hull's vertices within the margin: the vertices it has seen (a stamp per
// vertex, reset by a new stamp) and those within. Per thread (the batch steps worlds on several);
// grown to the largest hull once, no allocation after.
struct PlaneWalk {
  std::vector<uint32_t> seen;
  uint32_t stamp = 0;
  std::vector<int> within;
  void start(size_t n) {
    if (seen.size() < n) seen.resize(n, 0);
    if (++stamp == 0) {  // wrapped: clear the old stamps
      std::fill(seen.begin(), seen.end(), 0);
      stamp = 1;
    }
  }
  bool marked(int i) const { return seen[i] == stamp; }
  void mark(int i) { seen[i] = stamp; }
};
thread_local PlaneWalk plane_walk_;

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

void reduce_manifold(std::vector<ContactPoint>& out, size_t first, const Vec3& n, int max_points,
                     double deeper) {
  const size_t count = out.size() - first;
  max_points = std::clamp(max_points, 1, kMaxManifold);
  if (count <= static_cast<size_t>(max_points)) return;
  const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
  thread_local std::vector<Eigen::Vector2d> flat;  // the points in the plane normal to n
  flat.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const Vec3& x = out[first + i].point;
    flat[i] = Eigen::Vector2d(t1.dot(x), t2.dot(x));
  }
  auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  std::array<size_t, kMaxManifold> keep;
  int kept = 0;
  size_t deepest = 0;  // first pick: the deepest point (the lowest index among equals)
  for (size_t i = 1; i < count; ++i)
    if (out[first + i].gap < out[first + deepest].gap) deepest = i;
  keep[kept++] = deepest;
  // Then greedily the point that enlarges the kept points' polygon most: the farthest point, then
  // the largest triangle, then the largest quadrilateral.
  std::array<Eigen::Vector2d, kMaxManifold + 1> kept_flat;
  kept_flat.fill(Eigen::Vector2d::Zero());
  kept_flat[0] = flat[deepest];
  while (kept < max_points) {
    // The area of the kept points' hull with a candidate x: a segment's triangle; a triangle's
    // area plus, for each edge x lies beyond, the triangle of that edge and x (a fan from x).
    static_assert(kMaxManifold <= 4, "the gains below cover at most three kept points");
    const Eigen::Vector2d& a = kept_flat[0];
    std::array<Eigen::Vector2d, 3> tri;
    double tri_area = 0.0;
    if (kept == 3) {
      const double s = cross(kept_flat[0], kept_flat[1], kept_flat[2]);
      tri = {kept_flat[0], s >= 0.0 ? kept_flat[1] : kept_flat[2],
             s >= 0.0 ? kept_flat[2] : kept_flat[1]};  // counter-clockwise
      tri_area = 0.5 * std::abs(s);
    }
    auto gain_of = [&](const Eigen::Vector2d& x) {
      switch (kept) {
        case 1:
          return (x - a).norm();
        case 2:
          return 0.5 * std::abs(cross(a, kept_flat[1], x));
        default: {  // 3
          double area = tri_area;
          for (int e = 0; e < 3; ++e)
            area += 0.5 * std::max(0.0, -cross(tri[e], tri[(e + 1) % 3], x));
          return area;
        }
      }
    };
    double best = 0.0;
    size_t pick = count;
    for (size_t i = 0; i < count; ++i) {
      if (std::find(keep.begin(), keep.begin() + kept, i) != keep.begin() + kept) continue;
      const double gain = gain_of(flat[i]);
      if (gain > best) best = gain, pick = i;
    }
    // Nothing enlarges the polygon beyond rounding: the points coincide or lie on a line.
    const double scale = kept == 1 ? 1e-9 : 1e-18;
    if (pick == count || best <= scale) break;
    // The pick stands for its neighbourhood: the deepest point within a tenth of its distance from
    // the first kept point, if deeper by more than `deeper`, replaces it. A rounded toe's outline
    // vertex, further out and above the floor, must not displace the vertex that touches beside
    // it, or the pair's support jumps between toe and heel from step to step; and vertices of a
    // flat sole, level to rounding, must not take turns (docs/collision.md).
    const Eigen::Vector2d centre = flat[pick];
    const double radius = 0.1 * (centre - kept_flat[0]).norm();
    double deepest_near = out[first + pick].gap - deeper;
    for (size_t i = 0; i < count; ++i)
      if (out[first + i].gap < deepest_near && (flat[i] - centre).norm() <= radius &&
          std::find(keep.begin(), keep.begin() + kept, i) == keep.begin() + kept) {
        deepest_near = out[first + i].gap;
        pick = i;
      }
    kept_flat[kept] = flat[pick];
    keep[kept++] = pick;
  }
  std::array<ContactPoint, kMaxManifold> chosen;
  for (int k = 0; k < kept; ++k) chosen[k] = out[first + keep[k]];
  out.resize(first + kept);
  std::copy(chosen.begin(), chosen.begin() + kept, out.begin() + first);
}

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
      // Its lowest point (the support's climb) first: a hull above the margin has no contact.
      if (P.gap(support(b, -n)) >= margin) return;
      // The gaps in the mesh's frame, world points only for the vertices within the margin.
      const MeshData& mesh = *g.mesh;
      const auto& v = mesh.vertices;
      const Vec3 nl = b.R.transpose() * n;
      const double base = P.gap(b.X.p);
      const size_t first = out.size();
      const double deeper = std::max(1e-9, 0.01 * margin);
      if (b.climb >= 0 && mesh.neighbor_start.size() == v.size() + 1) {
        // A hull's vertices below a plane are connected in its vertex graph (from each, an edge
        // descends towards the lowest vertex), so a walk from the lowest one finds them all,
        // testing only them and their neighbours (a robot's STL hulls have thousands of
        // vertices, a few dozen within the margin). Pushed in index order, as a scan would.
        std::vector<int>& within = plane_walk_.within;
        plane_walk_.start(v.size());
        within.clear();
        within.push_back(b.climb);
        plane_walk_.mark(b.climb);
        for (size_t i = 0; i < within.size(); ++i) {
          const int at = within[i];
          for (int k = mesh.neighbor_start[at]; k < mesh.neighbor_start[at + 1]; ++k) {
            const int nb = mesh.neighbors[k];
            if (plane_walk_.marked(nb)) continue;
            plane_walk_.mark(nb);
            if (nl.dot(v[nb]) + base < margin) within.push_back(nb);
          }
        }
        std::sort(within.begin(), within.end());
        for (const int k : within)  // the walk tested all but the start: the scan's own test
          if (k != b.climb || nl.dot(v[k]) + base < margin)
            P.push(b.X.p + b.R * v[k], 0.0, static_cast<uint32_t>(k), margin, out);
        return reduce_manifold(out, first, n, kMaxManifold, deeper);
      }
      for (size_t k = 0; k < v.size(); ++k)  // no vertex graph: one dot product per vertex
        if (nl.dot(v[k]) + base < margin)
          P.push(b.X.p + b.R * v[k], 0.0, static_cast<uint32_t>(k), margin, out);
      return reduce_manifold(out, first, n, kMaxManifold, deeper);
    }
  }
}

}  // namespace moreau
