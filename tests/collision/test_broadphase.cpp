// The grid broadphase reports exactly the overlapping pairs (against brute force), mixed sizes.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

#include "moreau/collision/broadphase.hpp"
#include "moreau/collision/shape.hpp"
#include "moreau/math/so3.hpp"

namespace moreau {
namespace {

TEST(Broadphase, GridMatchesBruteForce) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1), s(0.01, 0.1);
  for (int trial = 0; trial < 5; ++trial) {
    const int n = 400;
    std::vector<Vec3> lo(n), hi(n);
    std::vector<int> ids;
    for (int i = 0; i < n; ++i) {
      const Vec3 c(u(rng), u(rng), 0.3 * u(rng));
      Vec3 h(s(rng), s(rng), s(rng));
      if (i % 97 == 0) h *= 20.0;  // a few large boxes
      lo[i] = c - h;
      hi[i] = c + h;
      if (i % 5 != 3) ids.push_back(i);  // a subset of geometries
    }
    std::set<std::pair<int, int>> brute, grid;
    for (size_t a = 0; a < ids.size(); ++a)
      for (size_t b = a + 1; b < ids.size(); ++b)
        if (boxes_overlap(lo[ids[a]], hi[ids[a]], lo[ids[b]], hi[ids[b]]))
          brute.insert({std::min(ids[a], ids[b]), std::max(ids[a], ids[b])});
    GridBroadphase bp;
    int reported = 0;
    bp.overlaps(ids, lo, hi, [&](int i, int j) {
      EXPECT_LT(i, j);
      grid.insert({i, j});
      ++reported;
    });
    EXPECT_EQ(reported, static_cast<int>(grid.size()));  // no duplicates
    EXPECT_EQ(grid, brute);
    EXPECT_GT(brute.size(), 100u);
  }
}

// Far from the origin the grid's cell keys saturate and distinct cells share a key: the pairs are
// still exactly the overlapping ones, and never a box with itself.
TEST(Broadphase, SaturatedCellKeysStillGiveTheOverlappingPairs) {
  std::vector<Vec3> lo, hi;
  std::vector<int> ids;
  for (int i = 0; i < 6; ++i) {
    const Vec3 c(1e7 + 0.015 * i, -3e6, 0.0);  // cells of 0.02 m: keys clamp at 2^20 cells
    lo.push_back(c - Vec3::Constant(0.01));
    hi.push_back(c + Vec3::Constant(0.01));
    ids.push_back(i);
  }
  std::set<std::pair<int, int>> pairs;
  int reported = 0;
  GridBroadphase bp;
  bp.overlaps(ids, lo, hi, [&](int i, int j) {
    EXPECT_LT(i, j);
    pairs.insert({i, j});
    ++reported;
  });
  // Centres 0.015 apart, boxes 0.02 wide: each box overlaps its immediate neighbours only.
  const std::set<std::pair<int, int>> expected{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}};
  EXPECT_EQ(pairs, expected);
  EXPECT_GE(reported, 5);  // a pair may be reported more than once here: the detector dedupes
}

// A state blowing up puts box centres at 1e300 and beyond (and NaN): their cells clamp to the
// grid's edge, and the pairs are still exactly the overlapping ones. (The overflow the clamp
// prevents is checked under UBSan through the detector, Detector.BodiesFarBeyondTheGrid...: this
// file's test code is compiled without UBSan.)
TEST(Broadphase, CentresBeyondAnyCellClampWithoutOverflow) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Vec3> lo, hi;
  for (const Vec3& c : {Vec3(0, 0, 0), Vec3(0.015, 0, 0), Vec3(1e300, -1e300, 1e300),
                        Vec3(1e300, -1e300, 1e300), Vec3(-1e300, 1e300, -1e300), Vec3(nan, 0, 0)}) {
    lo.push_back(c - Vec3::Constant(0.01));
    hi.push_back(c + Vec3::Constant(0.01));
  }
  std::vector<int> ids{0, 1, 2, 3, 4, 5};
  std::set<std::pair<int, int>> pairs;
  GridBroadphase bp;
  bp.overlaps(ids, lo, hi, [&](int i, int j) {
    if (j != 5) pairs.insert({i, j});  // the NaN box: whatever it pairs with, without overflow
  });
  // 0-1 overlap; 2 and 3 coincide; 4 is alone at the opposite corner.
  const std::set<std::pair<int, int>> expected{{0, 1}, {2, 3}};
  EXPECT_EQ(pairs, expected);
}

// The world box of every bounded shape is tight: each face touches the shape, i.e. it equals the
// support function along +-e_k (an independent computation through support()).
TEST(Broadphase, TightWorldBoxesEqualTheSupportExtents) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Geometry> shapes(4);
  shapes[0].type = ShapeType::Sphere;
  shapes[0].radius = 0.3;
  shapes[1].type = ShapeType::Capsule;
  shapes[1].radius = 0.1;
  shapes[1].half_length = 0.4;
  shapes[2].type = ShapeType::Cylinder;
  shapes[2].radius = 0.2;
  shapes[2].half_length = 0.05;
  shapes[3].type = ShapeType::Ellipsoid;
  shapes[3].half_extents = Vec3(0.3, 0.1, 0.05);
  for (const Geometry& g : shapes)
    for (int trial = 0; trial < 20; ++trial) {
      const Pose X{Vec3(u(rng), u(rng), u(rng)), Quat(u(rng), u(rng), u(rng), u(rng)).normalized()};
      Vec3 center, half, lo, hi;
      local_bounds(g, &center, &half);
      tight_world_aabb(g, center, half, X, X.R(), &lo, &hi);
      const PlacedShape ps = place(g, X);
      for (int k = 0; k < 3; ++k) {
        const Vec3 e = Vec3::Unit(k);
        EXPECT_NEAR(hi[k], support(ps, e)[k], 1e-12) << shape_name(g.type) << " axis " << k;
        EXPECT_NEAR(lo[k], support(ps, -e)[k], 1e-12) << shape_name(g.type) << " axis " << k;
      }
      // The bounding sphere contains the box's support points in every direction.
      for (int d = 0; d < 20; ++d) {
        const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
        EXPECT_LE((support(ps, dir) - X * center).norm(), bounding_radius(g, half) + 1e-12);
      }
    }
}

}  // namespace
}  // namespace moreau
