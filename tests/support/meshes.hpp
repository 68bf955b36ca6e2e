#pragma once
// Triangle meshes for the mesh tests: a box as a triangle soup, an icosphere, and the rotation
// that rests a convex mesh on a face; the comparison of two contact sets.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "moreau/collision/contact.hpp"
#include "moreau/model/geometry.hpp"

namespace moreau::test {

// A box as a triangle soup (two triangles per face, orientation as it comes: the closed-mesh
// construction orients it).
inline std::shared_ptr<MeshData> box_mesh(const Vec3& h) {
  auto m = std::make_shared<MeshData>();
  m->source = "box mesh";
  for (int k = 0; k < 8; ++k)
    m->vertices.push_back(
        Vec3((k & 1 ? 1 : -1) * h.x(), (k & 2 ? 1 : -1) * h.y(), (k & 4 ? 1 : -1) * h.z()));
  const int quads[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m->triangles.push_back({q[0], q[1], q[2]});
    m->triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

inline std::shared_ptr<const MeshData> icosphere(double r, int levels) {
  auto m = std::make_shared<MeshData>();
  m->source = "icosphere";
  const double p = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> v = {{-1, p, 0},  {1, p, 0},  {-1, -p, 0}, {1, -p, 0}, {0, -1, p},  {0, 1, p},
                         {0, -1, -p}, {0, 1, -p}, {p, 0, -1},  {p, 0, 1},  {-p, 0, -1}, {-p, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (Vec3& x : v) x.normalize();
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return mid[key] = static_cast<int>(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> g;
    for (const auto& t : f) {
      const int a = midpoint(t[0], t[1]), b = midpoint(t[1], t[2]), c = midpoint(t[2], t[0]);
      g.push_back({t[0], a, c});
      g.push_back({t[1], b, a});
      g.push_back({t[2], c, b});
      g.push_back({a, b, c});
    }
    f = g;
  }
  for (Vec3& x : v) m->vertices.push_back(r * x);
  m->triangles = f;
  return m;
}

// The rotation that turns the face of a mesh around the origin (a convex one, such as the
// icosphere) pointing most nearly down to face straight down (a stable rest on a plane); *low is
// the lowest vertex height after it.
inline Quat face_down(const MeshData& m, double* low) {
  Vec3 down = Vec3::UnitZ();
  for (const auto& t : m.triangles) {
    const Vec3 n = (m.vertices[t[1]] - m.vertices[t[0]])
                       .cross(m.vertices[t[2]] - m.vertices[t[0]])
                       .normalized();
    const Vec3 o = (n.dot(m.vertices[t[0]]) < 0.0) ? Vec3(-n) : n;  // outward
    if (o.z() < down.z()) down = o;
  }
  const Quat q = Quat::FromTwoVectors(down, -Vec3::UnitZ());
  *low = 0.0;
  for (const Vec3& v : m.vertices) *low = std::min(*low, (q * v).z());
  return q;
}

// Contacts ordered by their points (lexicographic), to compare two detectors' sets.
struct ContactLess {
  bool operator()(const Contact& a, const Contact& b) const {
    for (int k = 0; k < 3; ++k)
      if (a.point[k] != b.point[k]) return a.point[k] < b.point[k];
    return false;
  }
};

// The same contacts (points, normals and gaps to 1e-12), in ContactLess order.
inline void expect_same_contacts(std::vector<Contact> cb, std::vector<Contact> cm) {
  ASSERT_EQ(cb.size(), cm.size());
  std::sort(cb.begin(), cb.end(), ContactLess{});
  std::sort(cm.begin(), cm.end(), ContactLess{});
  for (size_t k = 0; k < cb.size(); ++k) {
    EXPECT_LE((cb[k].point - cm[k].point).norm(), 1e-12) << k;
    EXPECT_LE((cb[k].normal - cm[k].normal).norm(), 1e-12) << k;
    EXPECT_NEAR(cb[k].gap, cm[k].gap, 1e-12) << k;
  }
}

}  // namespace moreau::test
