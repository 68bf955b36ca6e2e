// Box-box: separating-axis test over 15 axes (exact penetration depth for polyhedra), then a face
// manifold (incident face clipped against the reference face, up to 8 points) or one edge-edge
// point.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "moreau/collision/narrowphase.hpp"

namespace moreau {

namespace {
struct ClipVertex {
  Vec3 x;  // (u, v, height) in the reference face frame
  uint32_t label;
};
using Polygon = std::array<ClipVertex, 16>;

// Sutherland-Hodgman against the half-plane sign * x[axis] <= lim (with tolerance tol).
int clip(const Polygon& in, int n, int axis, double sign, double lim, double tol, int plane,
         Polygon& out) {
  int m = 0;
  for (int k = 0; k < n; ++k) {
    const ClipVertex& P = in[k];
    const ClipVertex& Q = in[(k + 1) % n];
    const double dp = sign * P.x[axis] - lim, dq = sign * Q.x[axis] - lim;
    if (dp <= tol) out[m++] = P;
    if ((dp <= tol) != (dq <= tol) && (dp > tol || dq > tol) && std::abs(dp - dq) > 0.0) {
      const double s = dp / (dp - dq);
      if (dp * dq < 0.0)
        out[m++] = {P.x + s * (Q.x - P.x),
                    4u + ((P.label * 7u + Q.label * 3u) * 4u + plane) % 1000u};
    }
  }
  return m;
}

struct BoxRef {
  const PlacedShape* s;
  const Vec3& h() const { return s->g->half_extents; }
  Vec3 axis(int i) const { return s->R.col(i); }
};

// Face manifold: `ref` face with outward normal nr (towards `inc`); n_AB the pair normal.
void face_manifold(const BoxRef& ref, int i, const Vec3& nr, const BoxRef& inc, bool ref_is_a,
                   uint32_t code, double margin, std::vector<ContactPoint>& out) {
  const int j1 = (i + 1) % 3, j2 = (i + 2) % 3;
  const Vec3 u = ref.axis(j1), v = ref.axis(j2);
  const Vec3 cr = ref.s->X.p + ref.h()[i] * nr;
  int k = 0;
  for (int m = 1; m < 3; ++m)
    if (std::abs(inc.axis(m).dot(nr)) > std::abs(inc.axis(k).dot(nr))) k = m;
  const double sk = inc.axis(k).dot(nr) > 0.0 ? -1.0 : 1.0;
  const Vec3 ci = inc.s->X.p + sk * inc.h()[k] * inc.axis(k);
  const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
  const Vec3 e1 = inc.h()[k1] * inc.axis(k1), e2 = inc.h()[k2] * inc.axis(k2);
  const Vec3 corners[4] = {ci + e1 + e2, ci - e1 + e2, ci - e1 - e2, ci + e1 - e2};
  Polygon a, b;
  int n = 4;
  for (int m = 0; m < 4; ++m) {
    const Vec3 r = corners[m] - cr;
    a[m] = {Vec3(r.dot(u), r.dot(v), r.dot(nr)), static_cast<uint32_t>(m)};
  }
  const double scale = std::max(ref.h().maxCoeff(), inc.h().maxCoeff());
  const double tol = 1e-5 * scale;  // near-boundary vertices are kept (stable features in stacks)
  const double lims[2] = {ref.h()[j1], ref.h()[j2]};
  int plane = 0;
  for (int ax = 0; ax < 2; ++ax)
    for (double sg : {1.0, -1.0}) {
      n = clip(a, n, ax, sg, lims[ax], tol, plane++, b);
      std::copy(b.begin(), b.begin() + n, a.begin());
    }
  const size_t first = out.size();
  for (int m = 0; m < n; ++m) {
    const double z = a[m].x.z();
    if (z >= margin) continue;
    const Vec3 P = cr + a[m].x.x() * u + a[m].x.y() * v + z * nr;
    bool dup = false;
    for (size_t q = first; q < out.size(); ++q)
      dup |= ((ref_is_a ? Vec3(P - z * nr) : P) - out[q].point).norm() <= tol;
    if (dup) continue;
    uint32_t label = a[m].label;
    for (size_t q = first; q < out.size(); ++q)  // keep features unique within the pair
      if ((out[q].feature & 1023u) == label) label = (label + 1) % 1024u, q = first - 1;
    if (ref_is_a)
      out.push_back({P - z * nr, nr, z, code * 1024u + label});
    else
      out.push_back({P, -nr, z, code * 1024u + label});
  }
}
}  // namespace

void collide_box_box(const PlacedShape& sa, const PlacedShape& sb, double margin,
                     std::vector<ContactPoint>& out) {
  const BoxRef A{&sa}, B{&sb};
  const Vec3 d = sb.X.p - sa.X.p;
  const Vec3 ha = A.h(), hb = B.h();
  const double scale = std::max(ha.maxCoeff(), hb.maxCoeff());
  double best = -std::numeric_limits<double>::infinity();
  int best_axis = -1;  // 0-2 faces of A, 3-5 faces of B, 6-14 edge pairs
  Vec3 best_n = Vec3::UnitZ();
  auto test = [&](const Vec3& L, int id, double slack) {
    double pa = 0.0, pb = 0.0;
    for (int k = 0; k < 3; ++k) {
      pa += ha[k] * std::abs(A.axis(k).dot(L));
      pb += hb[k] * std::abs(B.axis(k).dot(L));
    }
    const double sep = std::abs(L.dot(d)) - pa - pb;
    if (sep > best + slack) {
      best = sep;
      best_axis = id;
      best_n = L.dot(d) < 0.0 ? Vec3(-L) : L;
    }
    return sep;
  };
  for (int i = 0; i < 3; ++i)
    if (test(A.axis(i), i, 0.0) >= margin) return;
  for (int j = 0; j < 3; ++j)
    if (test(B.axis(j), 3 + j, 0.0) >= margin) return;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Vec3 L = A.axis(i).cross(B.axis(j));
      const double len = L.norm();
      if (len < 1e-6) continue;  // parallel edges: covered by the face axes
      if (test(L / len, 6 + 3 * i + j, 1e-6 * scale) >= margin) return;  // faces preferred in ties
    }
  if (best >= margin) return;
  if (best_axis < 3)
    return face_manifold(A, best_axis, best_n, B, true,
                         2 * best_axis + (best_n.dot(A.axis(best_axis)) > 0), margin, out);
  if (best_axis < 6) {
    const int j = best_axis - 3;
    return face_manifold(B, j, -best_n, A, false, 6 + 2 * j + (best_n.dot(B.axis(j)) < 0), margin,
                         out);
  }
  // Edge-edge: the supporting edges of A (towards B) and of B (towards A), closest points.
  const int i = (best_axis - 6) / 3, j = (best_axis - 6) % 3;
  Vec3 pa = sa.X.p, pb = sb.X.p;
  for (int k = 0; k < 3; ++k) {
    if (k != i) pa += (best_n.dot(A.axis(k)) > 0.0 ? 1.0 : -1.0) * ha[k] * A.axis(k);
    if (k != j) pb -= (best_n.dot(B.axis(k)) > 0.0 ? 1.0 : -1.0) * hb[k] * B.axis(k);
  }
  const Vec3 u = A.axis(i), v = B.axis(j);
  const Vec3 r = pa - pb;
  const double bb = u.dot(v), c = u.dot(r), f = v.dot(r), den = 1.0 - bb * bb;
  const double s = std::clamp((bb * f - c) / den, -ha[i], ha[i]);
  const double t = std::clamp(bb * s + f, -hb[j], hb[j]);
  const Vec3 xa = pa + s * u, xb = pb + t * v;
  out.push_back(
      {xa, best_n, (xb - xa).dot(best_n), (12u + static_cast<uint32_t>(best_axis - 6)) * 1024u});
}

}  // namespace moreau
