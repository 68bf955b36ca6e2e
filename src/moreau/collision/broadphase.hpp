#pragma once
// Broadphase: uniform grid over the box centres (cell = largest box extent), so that a pair of
// overlapping boxes lies in neighbouring cells; geometries much larger than the median (> 8x) are
// tested against every box. Sorted cell keys, no hashing: deterministic and allocation-free after
// the first call. O(n log n) for the sort, then O(n + pairs) with one cursor per neighbour row.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "moreau/math/types.hpp"

namespace moreau {

class GridBroadphase {
 public:
  // Calls emit(i, j), i < j, for every pair of `ids` whose boxes [lo, hi] overlap.
  template <class F>
  void overlaps(const std::vector<int>& ids, const std::vector<Vec3>& lo,
                const std::vector<Vec3>& hi, F&& emit);

 private:
  static uint64_t pack(int64_t x, int64_t y, int64_t z) {
    auto c = [](int64_t v) {
      return static_cast<uint64_t>(std::clamp<int64_t>(v + (1 << 20), 0, (1 << 21) - 1));
    };
    return (c(x) << 42) | (c(y) << 21) | c(z);
  }
  std::vector<double> ext_;
  std::vector<std::pair<uint64_t, int>> cells_;  // (cell key, geometry)
  std::vector<int> large_;
};

inline bool boxes_overlap(const Vec3& alo, const Vec3& ahi, const Vec3& blo, const Vec3& bhi) {
  return !((alo.array() > bhi.array()).any() || (blo.array() > ahi.array()).any());
}

template <class F>
void GridBroadphase::overlaps(const std::vector<int>& ids, const std::vector<Vec3>& lo,
                              const std::vector<Vec3>& hi, F&& emit) {
  if (ids.empty()) return;
  ext_.clear();
  for (int i : ids) ext_.push_back((hi[i] - lo[i]).maxCoeff());
  std::nth_element(ext_.begin(), ext_.begin() + ext_.size() / 2, ext_.end());
  const double big = 8.0 * ext_[ext_.size() / 2];
  double h = 0.0;
  large_.clear();
  cells_.clear();
  for (int i : ids) {
    const double e = (hi[i] - lo[i]).maxCoeff();
    if (e > big)
      large_.push_back(i);
    else
      h = std::max(h, e);
  }
  h = std::max(h, 1e-9);
  auto cell = [&](int i, int k) {
    return static_cast<int64_t>(std::floor(0.5 * (lo[i][k] + hi[i][k]) / h));
  };
  for (int i : ids)
    if ((hi[i] - lo[i]).maxCoeff() <= big)
      cells_.push_back({pack(cell(i, 0), cell(i, 1), cell(i, 2)), i});
  std::sort(cells_.begin(), cells_.end());
  // The first key of each of the 9 neighbour rows (dx, dy, z-1..z+1) grows with the entry's own
  // key, so one forward-moving cursor per row finds them: O(n) after the sort.
  size_t cursor[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (const auto& entry : cells_) {
    const int i = entry.second;
    const int64_t x = cell(i, 0), y = cell(i, 1), z = cell(i, 2);
    for (int r = 0; r < 9; ++r) {
      const int64_t dx = r / 3 - 1, dy = r % 3 - 1;
      const uint64_t k0 = pack(x + dx, y + dy, z - 1), k1 = pack(x + dx, y + dy, z + 1);
      size_t& c = cursor[r];
      while (c < cells_.size() && cells_[c].first < k0) ++c;
      for (size_t q = c; q < cells_.size() && cells_[q].first <= k1; ++q) {
        const int j = cells_[q].second;
        if (j > i && boxes_overlap(lo[i], hi[i], lo[j], hi[j])) emit(i, j);
      }
    }
  }
  for (int L : large_)
    for (int j : ids) {
      const bool j_large = (hi[j] - lo[j]).maxCoeff() > big;
      if (j == L || (j_large && j < L)) continue;
      if (boxes_overlap(lo[L], hi[L], lo[j], hi[j])) emit(std::min(L, j), std::max(L, j));
    }
}

}  // namespace moreau
