// Height fields (docs/collision.md, "Height fields"): MuJoCo's construction, each grid cell split
// into two triangles and each triangle the top of a prism down to the base, so that the union of
// the prisms is the solid terrain. Only the prisms under the other shape's bounding box (in the
// height-field frame) are tested, each through convex_distance (GJK/EPA): one point per prism,
// feature = triangle index.
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
        const Vec3 L[3] = {h.point(r, col), k == 0 ? h.point(r, col + 1) : h.point(r + 1, col + 1),
                           k == 0 ? h.point(r + 1, col + 1) : h.point(r + 1, col)};
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
        if (!convex_distance(prism, b, &cp) || cp.gap >= margin) continue;
        if (cp.gap < 0.0) {
          const Vec3 n = hf.R * (L[1] - L[0]).cross(L[2] - L[0]).normalized();
          const Vec3 s = support(b, -n);
          if (over_triangle(Xinv * s, L[0], L[1], L[2])) {
            const double g = n.dot(s - P[0]);
            if (g >= margin) continue;
            cp.normal = n;
            cp.gap = g;
            cp.point = s - g * n;
          } else if (cp.normal.dot(up) <= 0.0) {
            continue;
          }
        }
        cp.feature = static_cast<uint32_t>(2 * (r * (h.ncol - 1) + col) + k) & 0xFFFFFu;
        bool dup = false;
        for (size_t q = first; q < out.size() && !dup; ++q)
          dup = (out[q].point - cp.point).norm() <= 1e-9 * scale &&
                (out[q].normal - cp.normal).norm() <= 1e-9 &&
                std::abs(out[q].gap - cp.gap) <= 1e-9 * scale;
        if (!dup) out.push_back(cp);
      }
  if (!hf_is_a) flip_contacts(out, first);
}

}  // namespace moreau
