#pragma once
// Axis-aligned bounding-box tree over the triangles of a mesh, in the mesh's local frame.
#include <algorithm>
#include <vector>

#include "moreau/model/geometry.hpp"

namespace moreau {

class MeshBvh {
 public:
  MeshBvh() = default;
  explicit MeshBvh(const MeshData& mesh);
  // Calls f(triangle index) for every triangle whose box overlaps [lo, hi] (local frame).
  template <class F>
  void query(const Vec3& lo, const Vec3& hi, F&& f) const {
    if (nodes_.empty()) return;
    int stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& nd = nodes_[stack[--top]];
      if ((nd.lo.array() > hi.array()).any() || (nd.hi.array() < lo.array()).any()) continue;
      if (nd.count > 0) {
        for (int k = nd.first; k < nd.first + nd.count; ++k) f(order_[k]);
      } else if (top < 62) {
        stack[top++] = nd.first;
        stack[top++] = nd.first + 1;
      }
    }
  }
  // Nearest-triangle search: calls f(triangle index), which returns the triangle's squared
  // distance to p, for every triangle whose box is nearer than the best found so far (nearer
  // subtrees first); returns the least squared distance (at most `best`, the initial bound).
  template <class F>
  double nearest(const Vec3& p, double best, F&& f) const {
    if (nodes_.empty()) return best;
    int stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& nd = nodes_[stack[--top]];
      if (box_distance2(nd, p) >= best) continue;
      if (nd.count > 0) {
        for (int k = nd.first; k < nd.first + nd.count; ++k) best = std::min(best, f(order_[k]));
      } else if (top < 62) {
        const int l = nd.first, r = nd.first + 1;
        const bool left_first = box_distance2(nodes_[l], p) <= box_distance2(nodes_[r], p);
        stack[top++] = left_first ? r : l;  // the nearer child is popped first
        stack[top++] = left_first ? l : r;
      }
    }
    return best;
  }
  bool empty() const { return nodes_.empty(); }

 private:
  struct Node {
    Vec3 lo, hi;
    int first = 0;  // leaf: first entry in order_; inner: index of the left child (right = +1)
    int count = 0;  // leaf: number of triangles; inner: 0
  };
  static double box_distance2(const Node& nd, const Vec3& p) {
    return (nd.lo - p).cwiseMax(p - nd.hi).cwiseMax(0.0).squaredNorm();
  }
  void build(const MeshData& mesh, std::vector<Vec3>& centroids, int index, int first, int count,
             int depth);
  std::vector<Node> nodes_;
  std::vector<int> order_;
};

}  // namespace moreau
