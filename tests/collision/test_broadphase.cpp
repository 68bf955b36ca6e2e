// The grid broadphase reports exactly the overlapping pairs (against brute force), mixed sizes.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "moreau/collision/broadphase.hpp"

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

}  // namespace
}  // namespace moreau
