// Height fields (docs/collision.md, "Height fields"): MuJoCo's construction, each grid cell split
// into two triangles and each triangle the top of a prism down to the base, so that the union of
// the prisms is the solid terrain. Only the prisms under the other shape's bounding box (in the
// height-field frame) are tested, each through convex_distance (GJK/EPA). A contact along the
// triangle's own normal (the other shape rests on the face) becomes the plane manifold of that
// face restricted to the points over the triangle (box corners, capsule ends, ...), so that a box
// smaller than a cell rests on its four corners; other contacts are one point per prism.
// Features: triangle index * 64 + the plane manifold's feature (63: the prism's own point).
//
// Every prism contact is a valid non-penetration constraint (the prism is solid terrain), but in
// penetration EPA's minimum translation can leave a prism through a side wall that is interior to
// the terrain (shared with the neighbouring prism). A penetrating contact is therefore replaced by
// the top face's contact when the other shape's deepest point along the face normal lies over the
// triangle (the plane contact of that face), and dropped when its normal points into the terrain.
// Identical contacts from neighbouring prisms (a sphere resting on a shared edge or vertex) are
// kept once.
#include <algorithm>
#include <cmath>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {

namespace {
// Barycentric inside test of p's (x, y) in triangle (a, b, c)'s (x, y), with a relative tolerance.
bool over_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double d = (b.x() - a.x()) * (c.y() - a.y()) - (c.x() - a.x()) * (b.y() - a.y());
  if (d == 0.0) return false;
  const double u = ((b.x() - p.x()) * (c.y() - p.y()) - (c.x() - p.x()) * (b.y() - p.y())) / d;
  const double v = ((c.x() - p.x()) * (a.y() - p.y()) - (a.x() - p.x()) * (c.y() - p.y())) / d;
  const double tol = 1e-12;
  return u >= -tol && v >= -tol && 1.0 - u - v >= -tol;
}

// True when the edge of triangle L (grid points `grid`, unit normal nl, all in the field's frame)
// nearest to w (in x, y) is shared with a neighbouring triangle that does not fall below L's
// plane (a flat or valley edge: no feature of the terrain). The neighbour's far vertex is
// a + b - v in grid indices (edge a-b, opposite vertex v).
bool interior_flat_edge(const HeightFieldData& h, const int grid[3][2], const Vec3& nl,
                        const Vec3& w, const Vec3* L) {
  int best = -1;
  double dmin = 0.0;
  for (int e = 0; e < 3; ++e) {
    const Eigen::Vector2d a = L[e].head<2>(), b = L[(e + 1) % 3].head<2>(), p = w.head<2>();
    const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
    const double d = (p - a - t * (b - a)).norm();
    if (best < 0 || d < dmin) best = e, dmin = d;
  }
  const int a = best, b = (best + 1) % 3, v = (best + 2) % 3;
  const int fr = grid[a][0] + grid[b][0] - grid[v][0], fc = grid[a][1] + grid[b][1] - grid[v][1];
  if (fr < 0 || fr >= h.nrow || fc < 0 || fc >= h.ncol) return false;  // the field's border
  const double scale = std::max({h.rx, h.ry, h.elevation_scale});
  return nl.dot(h.point(fr, fc) - L[0]) >= -1e-12 * scale;
}
}  // namespace

void collide_height_field(const PlacedShape& hf, const PlacedShape& b, bool hf_is_a, double margin,
                          std::vector<ContactPoint>& out) {
  const HeightFieldData& h = *hf.g->hfield;
  const Pose Xinv = hf.X.inverse();
  Vec3 c, half, lo, hi;
  local_bounds(*b.g, &c, &half);
  world_aabb(c, half, Xinv * b.X, &lo, &hi);  // b's box in the height-field frame
  lo.array() -= margin;
  hi.array() += margin;
  if (lo.x() > h.rx || hi.x() < -h.rx || lo.y() > h.ry || hi.y() < -h.ry || hi.z() < -h.base)
    return;
  const double dx = 2.0 * h.rx / (h.ncol - 1), dy = 2.0 * h.ry / (h.nrow - 1);
  auto cell = [](double t, double d, int n) {
    return std::clamp(static_cast<int>(std::floor(t / d)), 0, n - 2);
  };
  const int c0 = cell(lo.x() + h.rx, dx, h.ncol), c1 = cell(hi.x() + h.rx, dx, h.ncol);
  const int r0 = cell(lo.y() + h.ry, dy, h.nrow), r1 = cell(hi.y() + h.ry, dy, h.nrow);
  const double scale = std::max({h.rx, h.ry, h.elevation_scale + h.base});
  const size_t first = out.size();
  const Vec3 up = hf.R.col(2);
  for (int r = r0; r <= r1; ++r)
    for (int col = c0; col <= c1; ++col)
      for (int k = 0; k < 2; ++k) {
        // Triangles (r,c) (r,c+1) (r+1,c+1) and (r,c) (r+1,c+1) (r+1,c): counter-clockwise from
        // above, sharing the (r,c)-(r+1,c+1) diagonal.
        const int grid[3][2] = {
            {r, col}, {k == 0 ? r : r + 1, col + 1}, {r + 1, k == 0 ? col + 1 : col}};
        const Vec3 L[3] = {h.point(grid[0][0], grid[0][1]), h.point(grid[1][0], grid[1][1]),
                           h.point(grid[2][0], grid[2][1])};
        if (lo.z() > std::max({L[0].z(), L[1].z(), L[2].z()})) continue;
        Vec3 P[6];
        for (int i = 0; i < 3; ++i) {
          P[i] = hf.X * L[i];
          P[i + 3] = hf.X * Vec3(L[i].x(), L[i].y(), -h.base);
        }
        PlacedShape prism = hf;
        prism.tri = P;
        prism.ntri = 6;
        ContactPoint cp;
        if (!convex_distance(prism, b, &cp, margin) || cp.gap >= margin) continue;
        const Vec3 nl = (L[1] - L[0]).cross(L[2] - L[0]).normalized(), n = hf.R * nl;
        auto face_contact = [&](ContactPoint* out_cp) {  // the plane of the triangle
          const Vec3 s = support(b, -n);
          const double g = n.dot(s - P[0]);
          *out_cp = {s - g * n, n, g, 0};
          return g < margin;
        };
        if (cp.normal.dot(n) < 1.0 - 1e-9) {
          // Not along the face normal: the feature of the prism is an edge or a vertex of the top
          // triangle (or a wall). Penetrating with the deepest point over the triangle: the face's
          // contact. An edge shared with a neighbour that is coplanar or rises above this plane
          // is no feature of the terrain: the face's (extended) plane instead. Penetrating
          // sideways or downwards: out through a wall inside the terrain, dropped.
          const Vec3 w = Xinv * cp.point;
          if (cp.gap < 0.0 && over_triangle(Xinv * support(b, -n), L[0], L[1], L[2])) {
            if (!face_contact(&cp)) continue;
          } else if (interior_flat_edge(h, grid, nl, w, L)) {
            if (!face_contact(&cp)) continue;
          } else if (cp.gap < 0.0 && cp.normal.dot(up) <= 1e-3) {
            continue;
          }
        }
        const uint32_t tri = static_cast<uint32_t>(2 * (r * (h.ncol - 1) + col) + k);
        const size_t start = out.size();
        size_t kept = start;
        if (cp.normal.dot(n) >= 1.0 - 1e-9) {
          // A face contact: the plane manifold of the triangle's plane (collide_plane: box
          // corners, capsule ends, cylinder rims, mesh vertices), its points over the triangle.
          PlacedShape plane = hf;
          plane.X = Pose(P[0], Quat::FromTwoVectors(Vec3::UnitZ(), n));
          plane.R = plane.X.R();
          plane.R.col(2) = n;
          collide_plane(plane, b, margin, out);
          for (size_t q = kept; q < out.size(); ++q)
            if (over_triangle(Xinv * out[q].point, L[0], L[1], L[2])) {
              out[q].feature = (tri * 64u + out[q].feature % 63u) & 0xFFFFFu;
              out[kept++] = out[q];
            }
          out.resize(kept);
        }
        if (out.size() == start) {  // no plane manifold points: the prism's own contact
          cp.feature = (tri * 64u + 63u) & 0xFFFFFu;
          out.push_back(cp);
        }
        // Keep each point once (neighbouring prisms share edges and vertices).
        for (size_t q = out.size(); q-- > start;) {
          bool dup = false;
          for (size_t p = first; p < q && !dup; ++p)
            dup = (out[p].point - out[q].point).norm() <= 1e-9 * scale &&
                  (out[p].normal - out[q].normal).norm() <= 1e-9 &&
                  std::abs(out[p].gap - out[q].gap) <= 1e-9 * scale;
          if (dup) out.erase(out.begin() + static_cast<long>(q));
        }
      }
  if (!hf_is_a) flip_contacts(out, first);
}

}  // namespace moreau
