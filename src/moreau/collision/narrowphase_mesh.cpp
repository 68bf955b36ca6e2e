// Triangle meshes: a BVH over the triangles, then each overlapping triangle against the convex
// shape through GJK/EPA (one point per triangle, feature = triangle index).
#include <algorithm>

#include "moreau/collision/mesh_bvh.hpp"
#include "moreau/collision/narrowphase.hpp"

namespace moreau {

MeshBvh::MeshBvh(const MeshData& mesh) {
  const int nt = static_cast<int>(mesh.triangles.size());
  if (nt == 0) return;
  std::vector<Vec3> centroids(nt);
  order_.resize(nt);
  for (int t = 0; t < nt; ++t) {
    const auto& tr = mesh.triangles[t];
    centroids[t] = (mesh.vertices[tr[0]] + mesh.vertices[tr[1]] + mesh.vertices[tr[2]]) / 3.0;
    order_[t] = t;
  }
  nodes_.reserve(2 * nt);
  nodes_.emplace_back();
  build(mesh, centroids, 0, 0, nt, 0);
}

// Fills node 'index' (already allocated) with a median split on the widest centroid axis.
void MeshBvh::build(const MeshData& mesh, std::vector<Vec3>& centroids, int index, int first,
                    int count, int depth) {
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300), clo = lo, chi = hi;
  for (int k = first; k < first + count; ++k) {
    for (int v : mesh.triangles[order_[k]]) {
      lo = lo.cwiseMin(mesh.vertices[v]);
      hi = hi.cwiseMax(mesh.vertices[v]);
    }
    clo = clo.cwiseMin(centroids[order_[k]]);
    chi = chi.cwiseMax(centroids[order_[k]]);
  }
  nodes_[index].lo = lo;
  nodes_[index].hi = hi;
  if (count <= 4 || depth >= 28) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return;
  }
  int axis = 0;
  (chi - clo).maxCoeff(&axis);
  const int half = count / 2;
  std::nth_element(order_.begin() + first, order_.begin() + first + half,
                   order_.begin() + first + count, [&](int a, int b) {
                     return centroids[a][axis] < centroids[b][axis] ||
                            (centroids[a][axis] == centroids[b][axis] && a < b);
                   });
  const int left = static_cast<int>(nodes_.size());
  nodes_[index].first = left;
  nodes_[index].count = 0;
  nodes_.emplace_back();
  nodes_.emplace_back();
  build(mesh, centroids, left, first, half, depth + 1);
  build(mesh, centroids, left + 1, first + half, count - half, depth + 1);
}

void collide_mesh(const PlacedShape& mesh, const MeshBvh* bvh, const PlacedShape& b, bool mesh_is_a,
                  double margin, std::vector<ContactPoint>& out) {
  const MeshData& md = *mesh.g->mesh;
  Vec3 c, h, lo, hi;
  local_bounds(*b.g, &c, &h);
  world_aabb(c, h, mesh.X.inverse() * b.X, &lo, &hi);
  lo.array() -= margin;
  hi.array() += margin;
  auto one = [&](int t) {
    const auto& tr = md.triangles[t];
    const Vec3 T[3] = {mesh.X * md.vertices[tr[0]], mesh.X * md.vertices[tr[1]],
                       mesh.X * md.vertices[tr[2]]};
    PlacedShape tri = mesh;
    tri.tri = T;
    ContactPoint cp;
    if (!convex_distance(tri, b, &cp, margin) || cp.gap >= margin) return;
    cp.feature = static_cast<uint32_t>(t) & 0xFFFFFu;
    out.push_back(cp);
    if (!mesh_is_a) flip_contacts(out, out.size() - 1);
  };
  if (bvh && !bvh->empty()) return bvh->query(lo, hi, one);
  for (int t = 0; t < static_cast<int>(md.triangles.size()); ++t) {
    Vec3 tlo = md.vertices[md.triangles[t][0]], thi = tlo;
    for (int v : md.triangles[t]) {
      tlo = tlo.cwiseMin(md.vertices[v]);
      thi = thi.cwiseMax(md.vertices[v]);
    }
    if ((tlo.array() > hi.array()).any() || (thi.array() < lo.array()).any()) continue;
    one(t);
  }
}

}  // namespace moreau
