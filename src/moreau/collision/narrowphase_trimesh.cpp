// Triangle-level mesh-mesh contacts between two closed, outward-oriented meshes
// (docs/collision.md, "Mesh-mesh pairs", collision.mesh_mesh = "triangles"): vertex-face contacts
// both ways, edge-edge contacts between convex edges whose normal cones admit the edges' common
// normal, and edge-face contacts where an edge crosses under the boundary of a face it faces (the
// corners of overlapping faces). Every normal is a face normal or an edge-edge cross product
// checked against both edges' normal cones, never the direction between two nearly coincident
// points.
#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/collision/closed_mesh.hpp"
#include "moreau/collision/narrowphase.hpp"

namespace moreau {

namespace {

constexpr uint32_t kBVertexIds = 1u << 18;  // feature ids: A's vertices [0, 2^18),
constexpr uint32_t kEdgeIds = 1u << 19;     // B's vertices [2^18, 2^19), edge pairs [2^19, 2^20)
constexpr int kPerVertex = 4;               // at most this many faces per vertex
constexpr double kSupportTol = 1e-7;        // relative slack of the local-support test
constexpr double kConeTol = 1e-7;           // slack of the edges' normal-cone test
constexpr double kParallel = 1e-6;          // sine below which two edges count as parallel
// A feature also faces a face of the other mesh when one of its own faces is within 45 degrees
// of anti-parallel to it (two nearly parallel faces: the hull path clips one against the other).
const double kFacing = std::sqrt(0.5);

struct Scratch {
  std::vector<int> tris, edges;
  std::vector<std::pair<int, double>> cand;  // (triangle, signed plane distance)
  std::vector<std::pair<double, int>> by_x;  // kept contacts by point x, to find repeats
};

// u (perpendicular to the edge) lies in the normal cone {a n1 + b n2, a, b >= 0} of a convex edge.
bool in_cone(const Vec3& u, const Vec3& n1, const Vec3& n2) {
  const double c = n1.dot(n2), den = 1.0 - c * c;
  if (den < 1e-12) return (u - n1).norm() < 1e-6;
  const double a = (u.dot(n1) - c * u.dot(n2)) / den, b = (u.dot(n2) - c * u.dot(n1)) / den;
  return a >= -kConeTol && b >= -kConeTol;
}

// Vertices of m (pose X) against the faces of o (pose Xo): contacts with the point on m's vertex,
// the normal from m to o (minus o's face normal) and the gap the vertex's distance to the face's
// plane. A face qualifies when the vertex projects into it, lies within (-r, margin) of its plane
// on the side the signed distance to o says, and faces it: a local support point of m towards the
// face (no neighbour nearer to it) or a corner of a face of m within 45 degrees of anti-parallel;
// the faces within `margin` of the shallowest are kept.
void vertices_against(const ClosedMesh& m, const Pose& X, const ClosedMesh& o, const MeshBvh& ob,
                      const Pose& Xo, double margin, double reach, uint32_t id_base,
                      std::vector<ContactPoint>& out, Scratch& s) {
  const Pose T = Xo.inverse() * X;  // m's frame -> o's frame
  const Mat3 R = T.R(), Ro = Xo.R();
  const double tol = 1e-9 * std::max(m.scale, o.scale);
  for (int v : m.used) {
    const Vec3 p = T * m.vertices[v];
    if ((p.array() < o.lo.array() - margin).any() || (p.array() > o.hi.array() + margin).any())
      continue;
    const double d = signed_distance(o, ob, p);
    if (d >= margin || d < -reach) continue;
    const double r = std::max(margin, -d) + reach;
    s.tris.clear();
    ob.query(p - Vec3::Constant(r), p + Vec3::Constant(r), [&](int t) { s.tris.push_back(t); });
    std::sort(s.tris.begin(), s.tris.end());
    s.cand.clear();
    double shallowest = -std::numeric_limits<double>::infinity();
    for (int t : s.tris) {
      const Vec3& n = o.face_normal[t];
      const auto& tr = o.triangles[t];
      const double st = n.dot(p - o.vertices[tr[0]]);
      if (st >= margin || st <= -r) continue;
      if ((d < -tol && st > tol) || (d > tol && st < -tol)) continue;  // the side d says
      const Vec3 q = p - st * n;
      bool inside = true;
      for (int k = 0; k < 3 && inside; ++k) {
        const Vec3& a = o.vertices[tr[k]];
        const Vec3 e = o.vertices[tr[(k + 1) % 3]] - a;
        inside = e.cross(q - a).dot(n) >= -tol * e.norm();
      }
      if (!inside) continue;
      const Vec3 u = -(R.transpose() * n);  // towards the face, in m's frame
      bool support = true;
      for (int k = m.neighbor_start[v]; k < m.neighbor_start[v + 1] && support; ++k) {
        const Vec3 e = m.vertices[m.neighbors[k]] - m.vertices[v];
        support = e.dot(u) <= kSupportTol * e.norm();
      }
      for (int k = m.corner_start[v]; k < m.corner_start[v + 1] && !support; ++k)
        support = m.face_normal[m.corner_faces[k]].dot(u) >= kFacing;
      if (!support) continue;
      s.cand.emplace_back(t, st);
      shallowest = std::max(shallowest, st);
    }
    int kept = 0;
    const size_t first = out.size();
    for (const auto& [t, st] : s.cand) {
      if (st < shallowest - std::max(margin, tol) || kept == kPerVertex) continue;
      const Vec3 normal = -(Ro * o.face_normal[t]);
      bool same_plane = false;  // coplanar triangles of one face: one contact
      for (size_t i = first; i < out.size() && !same_plane; ++i)
        same_plane = (out[i].normal - normal).norm() < 1e-9 && std::abs(out[i].gap - st) <= tol;
      if (same_plane) continue;
      ContactPoint& c = out.emplace_back();
      c.point = X * m.vertices[v];
      c.normal = normal;
      c.gap = st;
      c.feature = id_base + (kPerVertex * static_cast<uint32_t>(v) + kept) % kBVertexIds;
      ++kept;
    }
  }
}

// Edge e = (p0, p1) of one mesh, with face normals (n0, n1), under the face of normal nf of the
// other mesh whose boundary edge is (q0, q1), all in one frame: the point of e whose projection
// along nf lies on the boundary edge (interior to both), when e faces the face: -nf, projected
// across e, in e's normal cone (strict), or one of e's faces within 45 degrees of -nf (relaxed).
// *gap: the point's distance from the face's plane.
bool edge_under_face(const Vec3& p0, const Vec3& p1, const Vec3& n0, const Vec3& n1, const Vec3& nf,
                     const Vec3& q0, const Vec3& q1, bool relaxed, Vec3* point, double* gap) {
  const Vec3 d = p1 - p0, db = q1 - q0, unit = d.normalized();
  if (relaxed) {
    if (std::max(n0.dot(-nf), n1.dot(-nf)) < kFacing) return false;
  } else {
    const Vec3 u = -nf + nf.dot(unit) * unit;  // -nf across e
    if (u.squaredNorm() < 1e-12 || !in_cone(u.normalized(), n0, n1)) return false;
  }
  const Vec3 sp = nf.cross(db);  // normal of the plane through the boundary edge along nf
  const double den = d.dot(sp);
  if (std::abs(den) <= kParallel * d.norm() * sp.norm()) return false;
  const double x = -(p0 - q0).dot(sp) / den;
  if (!(x > 1e-9 && x < 1.0 - 1e-9)) return false;
  *point = p0 + x * d;
  *gap = nf.dot(*point - q0);
  const double y = (*point - *gap * nf - q0).dot(db) / db.squaredNorm();
  return y > 1e-9 && y < 1.0 - 1e-9;
}

// Convex edges of a against the convex edges of b near them (contacts: point on a, normal from a
// to b), at most one kind per edge pair:
// - edge-edge: the closest points of the two lines, interior to both segments, when the normal,
//   the edges' cross product, lies in a's normal cone and its opposite in b's (Ericson,
//   "Real-Time Collision Detection", 5.1.8, for the closest points);
// - otherwise edge-face: where one edge, projected along the normal of a face of the other edge,
//   crosses that edge (a corner of the faces' overlap polygon, as the clipping of the hull path
//   finds it), when the edge faces the face; normal the face's, gap the distance from its plane.
void edges_against(const ClosedMesh& a, const Pose& Xa, const ClosedMesh& b, const MeshBvh& bb,
                   const Pose& Xb, double margin, double reach, std::vector<ContactPoint>& out,
                   Scratch& s) {
  const Pose T = Xb.inverse() * Xa;  // a's frame -> b's frame (all work in b's frame)
  const Mat3 R = T.R(), Rb = Xb.R();
  const uint64_t n_edges_b = b.edges.size();
  for (size_t ea = 0; ea < a.edges.size(); ++ea) {
    const ClosedMesh::Edge& A = a.edges[ea];
    if (!A.convex) continue;
    const Vec3 p0 = T * a.vertices[A.v0], p1 = T * a.vertices[A.v1];
    const Vec3 lo = p0.cwiseMin(p1).array() - (margin + reach),
               hi = p0.cwiseMax(p1).array() + (margin + reach);
    if ((lo.array() > b.hi.array()).any() || (hi.array() < b.lo.array()).any()) continue;
    s.tris.clear();
    bb.query(lo, hi, [&](int t) { s.tris.push_back(t); });
    s.edges.clear();
    for (int t : s.tris)
      for (int e : b.face_edges[t])
        if (b.edges[e].convex) s.edges.push_back(e);
    std::sort(s.edges.begin(), s.edges.end());
    s.edges.erase(std::unique(s.edges.begin(), s.edges.end()), s.edges.end());
    const Vec3 na[2] = {R * a.face_normal[A.f0], R * a.face_normal[A.f1]};
    const Vec3 da = p1 - p0;
    // point on a, normal a -> b, both in b's frame
    auto emit = [&](const Vec3& pa, const Vec3& n, double gap, int eb, int kind) {
      if (gap >= margin || gap <= -reach) return;
      ContactPoint& cp = out.emplace_back();
      cp.point = Xb * pa;
      cp.normal = Rb * n;
      cp.gap = gap;
      cp.feature = kEdgeIds + static_cast<uint32_t>(((ea * n_edges_b + eb) * 5 + kind) % kEdgeIds);
    };
    for (int eb : s.edges) {
      const ClosedMesh::Edge& B = b.edges[eb];
      const Vec3 &q0 = b.vertices[B.v0], &q1 = b.vertices[B.v1];
      const Vec3 nb[2] = {b.face_normal[B.f0], b.face_normal[B.f1]};
      const Vec3 db = q1 - q0;
      const Vec3 cr = da.cross(db);
      if (cr.squaredNorm() <= kParallel * kParallel * da.squaredNorm() * db.squaredNorm()) continue;
      // Closest points of the lines p0 + x da and q0 + y db.
      const Vec3 w = p0 - q0;
      const double aa = da.dot(da), ab = da.dot(db), bb2 = db.dot(db), c = da.dot(w), f = db.dot(w);
      const double den = aa * bb2 - ab * ab;
      const double x = (ab * f - c * bb2) / den, y = (aa * f - ab * c) / den;
      Vec3 n = cr.normalized();
      if (n.dot(na[0] + na[1]) < 0.0) n = -n;  // out of a
      if (x > 1e-9 && x < 1.0 - 1e-9 && y > 1e-9 && y < 1.0 - 1e-9 && in_cone(n, na[0], na[1]) &&
          in_cone(-n, nb[0], nb[1])) {
        const Vec3 pa = p0 + x * da, pb = q0 + y * db;
        emit(pa, n, n.dot(pb - pa), eb, 0);
        continue;
      }
      // At most one edge-face contact per edge pair: the first that qualifies, strict tests
      // first (a's edge under b's faces, then b's edge over a's).
      Vec3 pt;
      double gap;
      bool done = false;
      for (int pass = 0; pass < 2 && !done; ++pass)
        for (int k = 0; k < 4 && !done; ++k) {
          if (k < 2 && edge_under_face(p0, p1, na[0], na[1], nb[k], q0, q1, pass, &pt, &gap)) {
            emit(pt, -nb[k], gap, eb, 1 + k);  // a's edge under b's face
            done = true;
          } else if (k >= 2 &&
                     edge_under_face(q0, q1, nb[0], nb[1], na[k - 2], p0, p1, pass, &pt, &gap)) {
            emit(pt - gap * na[k - 2], na[k - 2], gap, eb, 1 + k);  // b's edge over a's face
            done = true;
          }
        }
    }
  }
}

// Removes the contacts [first, end) of out that repeat an earlier one (same point, normal and gap
// to tol): coincident corners seen from both meshes, a crossing of parallel faces seen as an edge
// pair and as edge-face pairs.
void remove_repeats(std::vector<ContactPoint>& out, size_t first, double tol, Scratch& s) {
  s.by_x.clear();
  size_t keep = first;
  for (size_t i = first; i < out.size(); ++i) {
    const ContactPoint c = out[i];
    bool dup = false;
    for (auto it = std::lower_bound(s.by_x.begin(), s.by_x.end(), std::pair{c.point.x() - tol, -1});
         it != s.by_x.end() && it->first <= c.point.x() + tol && !dup; ++it) {
      const ContactPoint& o = out[it->second];
      dup = (o.point - c.point).norm() <= tol && (o.normal - c.normal).norm() < 1e-9 &&
            std::abs(o.gap - c.gap) <= tol;
    }
    if (dup) continue;
    const std::pair<double, int> key{c.point.x(), static_cast<int>(keep)};
    s.by_x.insert(std::upper_bound(s.by_x.begin(), s.by_x.end(), key), key);
    out[keep++] = c;
  }
  out.resize(keep);
}

}  // namespace

void collide_closed_meshes(const ClosedMesh& a, const MeshBvh& ba, const Pose& Xa,
                           const ClosedMesh& b, const MeshBvh& bb, const Pose& Xb, double margin,
                           std::vector<ContactPoint>& out) {
  thread_local Scratch s;  // reused: no allocation once the buffers have grown
  // How deep an overlap is still resolved: a tenth of the thinner mesh's smallest half extent.
  const double reach = margin + 0.1 * std::min(a.min_half, b.min_half);
  const size_t first = out.size();
  vertices_against(a, Xa, b, bb, Xb, margin, reach, 0, out, s);
  size_t mid = out.size();
  vertices_against(b, Xb, a, ba, Xa, margin, reach, kBVertexIds, out, s);
  flip_contacts(out, mid);
  edges_against(a, Xa, b, bb, Xb, margin, reach, out, s);
  remove_repeats(out, first, 1e-9 * std::max(a.scale, b.scale), s);
}

}  // namespace moreau
