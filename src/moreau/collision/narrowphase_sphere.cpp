// Analytic pairs of round shapes: sphere-sphere, sphere-capsule, capsule-capsule, sphere-box.
#include <algorithm>
#include <cmath>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {

namespace {
// Two spheres (cA, rA), (cB, rB): exact signed distance along the centre line.
void sphere_pair(const Vec3& cA, double rA, const Vec3& cB, double rB, uint32_t feature,
                 double margin, std::vector<ContactPoint>& out) {
  const Vec3 d = cB - cA;
  const double L = d.norm();
  const double gap = L - rA - rB;
  if (gap >= margin) return;
  const Vec3 n = L > 0.0 ? Vec3(d / L) : Vec3::UnitZ();
  out.push_back({cA + rA * n, n, gap, feature});
}

// Closest point to x on the segment c + s a, s in [-h, h] (a unit).
Vec3 closest_on_segment(const Vec3& c, const Vec3& a, double h, const Vec3& x) {
  return c + std::clamp(a.dot(x - c), -h, h) * a;
}

// Closest points of segments p + s u (|s| <= hp) and q + t v (|t| <= hq), u, v unit
// (Ericson 5.1.9).
void closest_segments(const Vec3& p, const Vec3& u, double hp, const Vec3& q, const Vec3& v,
                      double hq, double* s, double* t) {
  const Vec3 r = p - q;
  const double b = u.dot(v), c = u.dot(r), f = v.dot(r);
  const double den = 1.0 - b * b;
  double ss = den > 1e-14 ? std::clamp((b * f - c) / den, -hp, hp) : 0.0;
  double tt = b * ss + f;
  if (tt < -hq || tt > hq) {
    tt = std::clamp(tt, -hq, hq);
    ss = std::clamp(b * tt - c, -hp, hp);
  }
  *s = ss;
  *t = tt;
}
}  // namespace

void collide_sphere_sphere(const PlacedShape& a, const PlacedShape& b, double margin,
                           std::vector<ContactPoint>& out) {
  sphere_pair(a.X.p, a.g->radius, b.X.p, b.g->radius, 0, margin, out);
}

void collide_sphere_capsule(const PlacedShape& a, const PlacedShape& b, double margin,
                            std::vector<ContactPoint>& out) {
  const Vec3 q = closest_on_segment(b.X.p, b.R.col(2), b.g->half_length, a.X.p);
  sphere_pair(a.X.p, a.g->radius, q, b.g->radius, 0, margin, out);
}

// One point at the closest pair (feature 0); nearly parallel overlapping capsules add the ends of
// the overlap (features 1, 2) so that a capsule lying on another rests on a line.
void collide_capsule_capsule(const PlacedShape& a, const PlacedShape& b, double margin,
                             std::vector<ContactPoint>& out) {
  const Vec3 u = a.R.col(2), v = b.R.col(2);
  const double ha = a.g->half_length, hb = b.g->half_length;
  double s, t;
  closest_segments(a.X.p, u, ha, b.X.p, v, hb, &s, &t);
  const Vec3 pa = a.X.p + s * u;
  sphere_pair(pa, a.g->radius, b.X.p + t * v, b.g->radius, 0, margin, out);
  if (u.cross(v).norm() > 1e-3) return;
  const double t0 = u.dot(b.X.p - hb * v - a.X.p), t1 = u.dot(b.X.p + hb * v - a.X.p);
  const double lo = std::max(-ha, std::min(t0, t1)), hi = std::min(ha, std::max(t0, t1));
  if (lo > hi) return;
  const double tol = 1e-6 * (ha + hb);
  const double ends[2] = {lo, hi};
  for (int k = 0; k < 2; ++k) {
    if (std::abs(ends[k] - s) <= tol || (k == 1 && hi - lo <= tol)) continue;
    const Vec3 x = a.X.p + ends[k] * u;
    sphere_pair(x, a.g->radius, closest_on_segment(b.X.p, v, hb, x), b.g->radius, 1 + k, margin,
                out);
  }
}

void collide_sphere_box(const PlacedShape& a, const PlacedShape& b, double margin,
                        std::vector<ContactPoint>& out) {
  const double r = a.g->radius;
  const Vec3& h = b.g->half_extents;
  const Vec3 c = b.R.transpose() * (a.X.p - b.X.p);  // sphere centre in the box frame
  const Vec3 q = c.cwiseMax(-h).cwiseMin(h);
  if (q != c) {  // centre outside: nearest box point
    const Vec3 d = q - c;
    const double L = d.norm();
    if (L - r >= margin) return;
    const Vec3 n = b.R * (d / L);
    out.push_back({a.X.p + r * n, n, L - r, 0});
    return;
  }
  int k = 0;  // centre inside: leave through the nearest face
  for (int i = 1; i < 3; ++i)
    if (h[i] - std::abs(c[i]) < h[k] - std::abs(c[k])) k = i;
  const double dist = h[k] - std::abs(c[k]);
  Vec3 f = Vec3::Zero();
  f[k] = c[k] < 0.0 ? -1.0 : 1.0;  // outward face normal, box frame
  const Vec3 n = -(b.R * f);
  out.push_back({a.X.p + r * n, n, -dist - r, static_cast<uint32_t>(1 + k)});
}

}  // namespace moreau
