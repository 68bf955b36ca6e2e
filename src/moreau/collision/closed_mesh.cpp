// Closed-mesh topology, orientation, pseudo-normals and the signed distance (closed_mesh.hpp).
#include "moreau/collision/closed_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moreau {

namespace {

Error mesh_error(const std::string& name, const std::string& expected, const std::string& got) {
  return Error{"", 0, name, expected, got};
}

double angle_between(const Vec3& u, const Vec3& v) {
  return std::atan2(u.cross(v).norm(), u.dot(v));
}

}  // namespace

Result<ClosedMesh> make_closed_mesh(const MeshData& mesh, const std::string& name) {
  const int nv = static_cast<int>(mesh.vertices.size());
  const int nt = static_cast<int>(mesh.triangles.size());
  const std::string closed = "a closed, oriented triangle surface";
  if (nt < 4) return mesh_error(name, closed, std::to_string(nt) + " triangles");
  ClosedMesh m;
  m.vertices = mesh.vertices;
  m.triangles = mesh.triangles;
  std::vector<char> is_used(nv, 0);
  for (const auto& t : m.triangles)
    for (int v : t) is_used[v] = 1;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int v = 0; v < nv; ++v)
    if (is_used[v]) {
      m.used.push_back(v);
      lo = lo.cwiseMin(m.vertices[v]);
      hi = hi.cwiseMax(m.vertices[v]);
    }
  m.lo = lo;
  m.hi = hi;
  m.scale = 0.5 * (hi - lo).maxCoeff();
  m.min_half = 0.5 * (hi - lo).minCoeff();
  for (int t = 0; t < nt; ++t) {
    const auto& tr = m.triangles[t];
    const double area2 =
        (m.vertices[tr[1]] - m.vertices[tr[0]]).cross(m.vertices[tr[2]] - m.vertices[tr[0]]).norm();
    if (!(area2 > 1e-12 * m.scale * m.scale))
      return mesh_error(name, "triangles of nonzero area",
                        "triangle " + std::to_string(t) + " of area " + error_number(area2 / 2));
  }
  // Directed half-edges sorted by their undirected key: each key must appear exactly twice.
  struct Half {
    int a, b, t, k;  // a < b; triangle t's edge k runs tr[k] -> tr[k + 1]
    bool operator<(const Half& o) const {
      return a != o.a ? a < o.a : b != o.b ? b < o.b : t != o.t ? t < o.t : k < o.k;
    }
  };
  std::vector<Half> half;
  half.reserve(3 * nt);
  for (int t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) {
      const int u = m.triangles[t][k], v = m.triangles[t][(k + 1) % 3];
      half.push_back({std::min(u, v), std::max(u, v), t, k});
    }
  std::sort(half.begin(), half.end());
  for (size_t i = 0; i < half.size();) {
    size_t j = i;
    while (j < half.size() && half[j].a == half[i].a && half[j].b == half[i].b) ++j;
    if (j - i != 2)
      return mesh_error(name, closed + " (every edge shared by exactly two triangles)",
                        "edge (" + std::to_string(half[i].a) + ", " + std::to_string(half[i].b) +
                            ") shared by " + std::to_string(j - i) + " triangle(s)");
    i = j;
  }
  // Consistent orientation: walk across the edges; neighbours must run a shared edge in opposite
  // directions, so a neighbour is flipped when both run it the same way.
  const int ne = nt * 3 / 2;
  auto dir = [&](const Half& h) { return m.triangles[h.t][h.k] == h.a; };  // runs a -> b
  std::vector<std::array<int, 3>> adj(nt);  // adj[t][k]: index into half of edge k's partner
  for (int e = 0; e < ne; ++e) {
    adj[half[2 * e].t][half[2 * e].k] = 2 * e + 1;
    adj[half[2 * e + 1].t][half[2 * e + 1].k] = 2 * e;
  }
  std::vector<int> flip(nt, -1), component(nt, -1), queue;
  std::vector<double> volume;
  for (int seed = 0; seed < nt; ++seed) {
    if (flip[seed] >= 0) continue;
    const int c = static_cast<int>(volume.size());
    volume.push_back(0.0);
    flip[seed] = 0;
    component[seed] = c;
    queue.assign(1, seed);
    for (size_t q = 0; q < queue.size(); ++q) {
      const int t = queue[q];
      for (int k = 0; k < 3; ++k) {
        const Half& other = half[adj[t][k]];
        const Half& mine = half[adj[t][k] ^ 1];
        const int want = flip[t] ^ (dir(mine) == dir(other) ? 1 : 0);
        if (flip[other.t] < 0) {
          flip[other.t] = want;
          component[other.t] = c;
          queue.push_back(other.t);
        } else if (flip[other.t] != want) {
          return mesh_error(name, closed + " (orientable)",
                            "triangles " + std::to_string(t) + " and " + std::to_string(other.t) +
                                " cannot be oriented consistently");
        }
      }
    }
  }
  for (int t = 0; t < nt; ++t) {
    if (flip[t]) std::swap(m.triangles[t][1], m.triangles[t][2]);
    const auto& tr = m.triangles[t];
    volume[component[t]] += m.vertices[tr[0]].dot(m.vertices[tr[1]].cross(m.vertices[tr[2]]));
  }
  // Each component outward: positive enclosed volume (divergence theorem).
  for (int t = 0; t < nt; ++t)
    if (volume[component[t]] < 0.0) std::swap(m.triangles[t][1], m.triangles[t][2]);
  m.face_normal.resize(nt);
  for (int t = 0; t < nt; ++t) {
    const auto& tr = m.triangles[t];
    m.face_normal[t] =
        (m.vertices[tr[1]] - m.vertices[tr[0]]).cross(m.vertices[tr[2]] - m.vertices[tr[0]]);
    m.face_normal[t].normalize();
  }
  // Edges, in the order of their sorted keys (deterministic), with f0 running v0 -> v1.
  m.edges.resize(ne);
  m.face_edges.resize(nt);
  for (int e = 0; e < ne; ++e) {
    const Half& h0 = half[2 * e];
    const Half& h1 = half[2 * e + 1];
    m.face_edges[h0.t][h0.k] = e;
    m.face_edges[h1.t][h1.k] = e;
    ClosedMesh::Edge& E = m.edges[e];
    E.v0 = h0.a;
    E.v1 = h0.b;
    const auto& t0 = m.triangles[h0.t];
    const bool t0_runs_ab = (t0[0] == h0.a && t0[1] == h0.b) || (t0[1] == h0.a && t0[2] == h0.b) ||
                            (t0[2] == h0.a && t0[0] == h0.b);
    E.f0 = t0_runs_ab ? h0.t : h1.t;
    E.f1 = t0_runs_ab ? h1.t : h0.t;
    const auto& t1 = m.triangles[E.f1];
    const int w = t1[0] != E.v0 && t1[0] != E.v1   ? t1[0]
                  : t1[1] != E.v0 && t1[1] != E.v1 ? t1[1]
                                                   : t1[2];
    const Vec3 dw = m.vertices[w] - m.vertices[E.v0];
    E.convex = m.face_normal[E.f0].dot(dw) < -1e-9 * dw.norm();
  }
  // The face's edge k is recorded at the triangle's original corner order; the reorientation
  // swapped corners 1 and 2, which maps edges (0, 1, 2) to (2, 1, 0).
  for (int t = 0; t < nt; ++t)
    if (flip[t] != (volume[component[t]] < 0.0 ? 1 : 0))
      std::swap(m.face_edges[t][0], m.face_edges[t][2]);
  m.neighbor_start.assign(nv + 1, 0);
  for (const auto& E : m.edges) ++m.neighbor_start[E.v0 + 1], ++m.neighbor_start[E.v1 + 1];
  for (int v = 0; v < nv; ++v) m.neighbor_start[v + 1] += m.neighbor_start[v];
  m.neighbors.resize(2 * ne);
  std::vector<int> fill(m.neighbor_start.begin(), m.neighbor_start.end() - 1);
  for (const auto& E : m.edges) {
    m.neighbors[fill[E.v0]++] = E.v1;
    m.neighbors[fill[E.v1]++] = E.v0;
  }
  m.corner_start.assign(nv + 1, 0);
  for (const auto& tr : m.triangles)
    for (int v : tr) ++m.corner_start[v + 1];
  for (int v = 0; v < nv; ++v) m.corner_start[v + 1] += m.corner_start[v];
  m.corner_faces.resize(3 * nt);
  fill.assign(m.corner_start.begin(), m.corner_start.end() - 1);
  for (int t = 0; t < nt; ++t)
    for (int v : m.triangles[t]) m.corner_faces[fill[v]++] = t;
  m.vertex_pseudo.assign(nv, Vec3::Zero());
  for (int t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) {
      const Vec3& x = m.vertices[m.triangles[t][k]];
      const double a = angle_between(m.vertices[m.triangles[t][(k + 1) % 3]] - x,
                                     m.vertices[m.triangles[t][(k + 2) % 3]] - x);
      m.vertex_pseudo[m.triangles[t][k]] += a * m.face_normal[t];
    }
  m.edge_pseudo.resize(ne);
  for (int e = 0; e < ne; ++e)
    m.edge_pseudo[e] = m.face_normal[m.edges[e].f0] + m.face_normal[m.edges[e].f1];
  return m;
}

Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, int* feature) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return *feature = 0, a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return *feature = 1, b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return *feature = 3, Vec3(a + d1 / (d1 - d3) * ab);
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return *feature = 2, c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return *feature = 5, Vec3(a + d2 / (d2 - d6) * ac);
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return *feature = 4, Vec3(b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b));
  const double denom = 1.0 / (va + vb + vc);
  *feature = 6;
  return a + ab * (vb * denom) + ac * (vc * denom);
}

double signed_distance(const ClosedMesh& m, const MeshBvh& bvh, const Vec3& p, Vec3* closest) {
  int best_t = -1, best_f = 6;
  Vec3 best_q = Vec3::Zero();
  double best = std::numeric_limits<double>::infinity();
  bvh.nearest(p, best, [&](int t) {
    const auto& tr = m.triangles[t];
    int f = 6;
    const Vec3 q =
        closest_on_triangle(p, m.vertices[tr[0]], m.vertices[tr[1]], m.vertices[tr[2]], &f);
    const double d2 = (p - q).squaredNorm();
    if (d2 < best) best = d2, best_t = t, best_f = f, best_q = q;
    return d2;
  });
  if (best_t < 0) return std::numeric_limits<double>::infinity();
  if (closest) *closest = best_q;
  const auto& tr = m.triangles[best_t];
  const Vec3 pn = best_f == 6  ? m.face_normal[best_t]
                  : best_f < 3 ? m.vertex_pseudo[tr[best_f]]
                               : m.edge_pseudo[m.face_edges[best_t][best_f - 3]];
  const double d = std::sqrt(best);
  return (p - best_q).dot(pn) < 0.0 ? -d : d;
}

}  // namespace moreau
