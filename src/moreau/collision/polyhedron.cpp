// Convex polyhedra from mesh hulls and the polyhedron-polyhedron manifold (polyhedron.hpp).
#include "moreau/collision/polyhedron.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/collision/mesh_io.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {

namespace {

double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

// Counter-clockwise convex hull (monotone chain) of the points ids, projected with (t, o).
std::vector<int> polygon_loop(const std::vector<Vec3>& v, std::vector<int> ids, const Vec3& t,
                              const Vec3& o) {
  auto p2 = [&](int i) { return Eigen::Vector2d(v[i].dot(t), v[i].dot(o)); };
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    const Eigen::Vector2d pa = p2(a), pb = p2(b);
    return pa.x() < pb.x() ||
           (pa.x() == pb.x() && (pa.y() < pb.y() || (pa.y() == pb.y() && a < b)));
  });
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() < 3) return ids;
  std::vector<int> h(2 * ids.size());
  size_t k = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    while (k >= 2 && cross2(p2(h[k - 2]), p2(h[k - 1]), p2(ids[i])) <= 0.0) --k;
    h[k++] = ids[i];
  }
  for (size_t i = ids.size() - 1, lo = k + 1; i-- > 0;) {
    while (k >= lo && cross2(p2(h[k - 2]), p2(h[k - 1]), p2(ids[i])) <= 0.0) --k;
    h[k++] = ids[i];
  }
  h.resize(k - 1);
  return h;
}

struct Placed {
  const Polyhedron* p;
  const Pose* X;
  Mat3 R;
  // Support value h(d) = max over vertices of d . x (world), and the vertex.
  double h(const Vec3& d) const {
    const Vec3 dl = R.transpose() * d;
    double best = -std::numeric_limits<double>::infinity();
    for (const Vec3& v : p->vertices) best = std::max(best, v.dot(dl));
    return best + d.dot(X->p);
  }
  Vec3 world(int i) const { return X->p + R * p->vertices[i]; }
  Vec3 normal(int f) const { return R * p->faces[f].normal; }
};

constexpr int kMaxPoly = 64;
struct ClipVertex {
  Vec3 x;  // world
  uint32_t label;
};

// Sutherland-Hodgman against s . (x - p) <= tol, as the box-box clipper (narrowphase_box.cpp).
int clip(const ClipVertex* in, int n, const Vec3& s, const Vec3& p, double tol, int plane,
         ClipVertex* out) {
  int m = 0;
  for (int k = 0; k < n && m < kMaxPoly - 1; ++k) {
    const ClipVertex& P = in[k];
    const ClipVertex& Q = in[(k + 1) % n];
    const double dp = s.dot(P.x - p), dq = s.dot(Q.x - p);
    if (dp <= tol) out[m++] = P;
    if ((dp <= tol) != (dq <= tol) && (dp > tol || dq > tol) && std::abs(dp - dq) > 0.0) {
      const double t = dp / (dp - dq);
      if (dp * dq < 0.0)
        out[m++] = {P.x + t * (Q.x - P.x),
                    64u + ((P.label * 7u + Q.label * 3u) * 64u + plane) % 900u};
    }
  }
  return m;
}

// Face manifold: reference face f of `ref` (outward normal towards `inc`), incident face of inc
// the most anti-parallel one; code identifies the reference face within the pair.
void face_manifold(const Placed& ref, int f, const Placed& inc, bool ref_is_a, uint32_t code,
                   double margin, std::vector<ContactPoint>& out) {
  const Vec3 nr = ref.normal(f);
  int fi = 0;
  double most = std::numeric_limits<double>::infinity();
  for (int k = 0; k < static_cast<int>(inc.p->faces.size()); ++k) {
    const double c = inc.normal(k).dot(nr);
    if (c < most) most = c, fi = k;
  }
  ClipVertex a[kMaxPoly], b[kMaxPoly];
  const std::vector<int>& il = inc.p->faces[fi].loop;
  int n = std::min(static_cast<int>(il.size()), kMaxPoly / 2);
  for (int m = 0; m < n; ++m) a[m] = {inc.world(il[m]), static_cast<uint32_t>(m)};
  const double tol = 1e-5 * std::max(ref.p->scale, inc.p->scale);
  const std::vector<int>& rl = ref.p->faces[f].loop;
  const int nl = static_cast<int>(rl.size());
  for (int k = 0; k < nl && n > 0; ++k) {
    const Vec3 p = ref.world(rl[k]), q = ref.world(rl[(k + 1) % nl]);
    Vec3 s = (q - p).cross(nr);
    const double len = s.norm();
    if (!(len > 0.0)) continue;
    s /= len;
    n = clip(a, n, s, p, tol, k, b);
    std::copy(b, b + n, a);
  }
  const Vec3 cr = ref.world(rl[0]);
  const size_t first = out.size();
  for (int m = 0; m < n; ++m) {
    const double z = nr.dot(a[m].x - cr);
    if (z >= margin) continue;
    const Vec3 P = a[m].x;
    const Vec3 on_a = ref_is_a ? Vec3(P - z * nr) : P;
    bool dup = false;
    for (size_t q = first; q < out.size(); ++q) dup |= (on_a - out[q].point).norm() <= tol;
    if (dup) continue;
    uint32_t label = a[m].label % 1024u;
    for (size_t q = first; q < out.size(); ++q)  // keep features unique within the pair
      if ((out[q].feature & 1023u) == label) label = (label + 1) % 1024u, q = first - 1;
    out.push_back({on_a, ref_is_a ? nr : Vec3(-nr), z, (code % 512u) * 1024u + label});
  }
}

}  // namespace

Result<Polyhedron> hull_polyhedron(const MeshData& mesh) {
  Result<std::shared_ptr<const MeshData>> hull = convex_hull(mesh);
  if (!hull) return hull.error();
  const MeshData& h = **hull;
  Polyhedron P;
  P.vertices = h.vertices;
  for (const Vec3& v : P.vertices) P.centroid += v;
  P.centroid /= static_cast<double>(P.vertices.size());
  P.scale = 0.0;
  for (const Vec3& v : P.vertices) P.scale = std::max(P.scale, (v - P.centroid).norm());
  // Coplanar hull triangles (qhull triangulates its facets) merged into one face each.
  std::vector<int> face_of(h.triangles.size(), -1);
  std::vector<std::vector<int>> members;
  for (size_t t = 0; t < h.triangles.size(); ++t) {
    const auto& tr = h.triangles[t];
    const Vec3 a = P.vertices[tr[0]], n = (P.vertices[tr[1]] - a).cross(P.vertices[tr[2]] - a);
    if (!(n.norm() > 0.0)) continue;
    const Vec3 u = n.normalized();
    const double d = u.dot(a);
    int f = -1;
    for (size_t k = 0; k < P.faces.size() && f < 0; ++k)
      if (P.faces[k].normal.dot(u) > 1.0 - 1e-10 &&
          std::abs(P.faces[k].offset - d) <= 1e-9 * P.scale)
        f = static_cast<int>(k);
    if (f < 0) {
      f = static_cast<int>(P.faces.size());
      P.faces.push_back({u, d, {}});
      members.emplace_back();
    }
    members[f].insert(members[f].end(), tr.begin(), tr.end());
  }
  for (size_t f = 0; f < P.faces.size(); ++f) {
    Polyhedron::Face& F = P.faces[f];
    const Mat3 fr = frame_from_normal(F.normal);
    F.loop = polygon_loop(P.vertices, members[f], fr.col(0), fr.col(1));
    // Counter-clockwise about the normal: t x o = n for the frame [t, o, n].
    for (size_t k = 0; k < F.loop.size(); ++k) {
      int a = F.loop[k], b = F.loop[(k + 1) % F.loop.size()];
      if (a > b) std::swap(a, b);
      if (std::find(P.edges.begin(), P.edges.end(), std::array<int, 2>{a, b}) == P.edges.end())
        P.edges.push_back({a, b});
    }
  }
  for (const auto& e : P.edges) {
    const Vec3 d = (P.vertices[e[1]] - P.vertices[e[0]]).normalized();
    int k = 0;
    while (k < static_cast<int>(P.dirs.size()) && P.dirs[k].cross(d).norm() > 1e-9) ++k;
    if (k == static_cast<int>(P.dirs.size())) P.dirs.push_back(d);
    P.edge_dir.push_back(k);
  }
  return P;
}

void collide_polyhedra(const Polyhedron& pa, const Pose& Xa, const Polyhedron& pb, const Pose& Xb,
                       double margin, std::vector<ContactPoint>& out) {
  const Placed A{&pa, &Xa, Xa.R()}, B{&pb, &Xb, Xb.R()};
  const double scale = std::max(pa.scale, pb.scale);
  double best = -std::numeric_limits<double>::infinity();
  int kind = -1, index = 0;  // 0: face of A, 1: face of B, 2: edge pair
  Vec3 best_n = Vec3::UnitZ();
  // sep(n) = min_B n.x - max_A n.x: a lower bound of the signed distance for every unit n, the
  // penetration depth at its maximum over face normals and edge-pair directions.
  for (int f = 0; f < static_cast<int>(pa.faces.size()); ++f) {
    const Vec3 n = A.normal(f);
    const double sep = -B.h(-n) - (n.dot(Xa.p) + pa.faces[f].offset);
    if (sep >= margin) return;
    if (sep > best) best = sep, kind = 0, index = f, best_n = n;
  }
  for (int f = 0; f < static_cast<int>(pb.faces.size()); ++f) {
    const Vec3 m = B.normal(f);  // axis from A to B: -m
    const double sep = -(m.dot(Xb.p) + pb.faces[f].offset) - A.h(-m);
    if (sep >= margin) return;
    if (sep > best) best = sep, kind = 1, index = f, best_n = -m;
  }
  const int na = static_cast<int>(pa.dirs.size()), nb = static_cast<int>(pb.dirs.size());
  for (int i = 0; i < na; ++i)
    for (int j = 0; j < nb; ++j) {
      Vec3 L = (A.R * pa.dirs[i]).cross(B.R * pb.dirs[j]);
      const double len = L.norm();
      if (len < 1e-6) continue;  // parallel edges: covered by the face normals
      L /= len;
      for (double sg : {1.0, -1.0}) {
        const Vec3 n = sg * L;
        const double sep = -B.h(-n) - A.h(n);
        if (sep >= margin) return;
        if (sep > best + 1e-6 * scale) best = sep, kind = 2, index = i * nb + j, best_n = n;
      }
    }
  if (kind == 0) return face_manifold(A, index, B, true, static_cast<uint32_t>(index), margin, out);
  if (kind == 1)
    return face_manifold(B, index, A, false, static_cast<uint32_t>(pa.faces.size() + index), margin,
                         out);
  // Edge-edge: the edge of direction i of A farthest along n, of direction j of B least along n,
  // closest points of the two segments.
  const int i = index / nb, j = index % nb;
  auto pick = [&](const Placed& P, int dir, double sign) {
    int e_best = -1;
    double v_best = -std::numeric_limits<double>::infinity();
    for (size_t e = 0; e < P.p->edges.size(); ++e) {
      if (P.p->edge_dir[e] != dir) continue;
      const double v = sign * best_n.dot(P.world(P.p->edges[e][0]) + P.world(P.p->edges[e][1]));
      if (v > v_best) v_best = v, e_best = static_cast<int>(e);
    }
    return e_best;
  };
  const int ea = pick(A, i, 1.0), eb = pick(B, j, -1.0);
  if (ea < 0 || eb < 0) return;
  const Vec3 a0 = A.world(pa.edges[ea][0]), a1 = A.world(pa.edges[ea][1]);
  const Vec3 b0 = B.world(pb.edges[eb][0]), b1 = B.world(pb.edges[eb][1]);
  const Vec3 u = a1 - a0, v = b1 - b0, r = a0 - b0;
  const double uu = u.dot(u), vv = v.dot(v), uv = u.dot(v), ur = u.dot(r), vr = v.dot(r);
  const double den = uu * vv - uv * uv;
  double s = den > 0.0 ? std::clamp((uv * vr - vv * ur) / den, 0.0, 1.0) : 0.0;
  double t = std::clamp((uv * s + vr) / vv, 0.0, 1.0);
  s = std::clamp((uv * t - ur) / uu, 0.0, 1.0);
  const Vec3 xa = a0 + s * u, xb = b0 + t * v;
  out.push_back({xa, best_n, (xb - xa).dot(best_n),
                 0x80000u | static_cast<uint32_t>((ea * 512 + eb) % 0x80000)});
}

}  // namespace moreau
