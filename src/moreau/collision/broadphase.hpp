#pragma once
// Broadphase: uniform grid over the box centres (cell = largest box extent), so that a pair of
// overlapping boxes lies in neighbouring cells; geometries much larger than the median (> 8x) are
// tested against every box. Sorted cell keys, no hashing: deterministic and allocation-free after
// the first call. O(n + pairs) when the occupied cells form a compact block (a counting sort),
// O(n log n) otherwise; then one forward cursor per neighbour column.
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
  static constexpr double kCellLimit = 1 << 22;  // beyond pack()'s +-2^20, room for +-1
  static uint64_t pack(int64_t x, int64_t y, int64_t z) {
    auto c = [](int64_t v) {
      return static_cast<uint64_t>(std::clamp<int64_t>(v + (1 << 20), 0, (1 << 21) - 1));
    };
    return (c(x) << 42) | (c(y) << 21) | c(z);
  }
  // Sorts cells_ by (key, geometry): a counting sort over the occupied block of cells when it is
  // not much larger than the number of entries (piles, stacks), else std::sort.
  void sort_cells();
  std::vector<double> ext_;
  std::vector<int> count_;
  std::vector<std::pair<uint64_t, int>> sorted_;
  std::vector<std::pair<Vec3, Vec3>> box_;       // (lo, hi) in cells_ order
  std::vector<std::pair<uint64_t, int>> cells_;  // (cell key, geometry)
  std::vector<int> large_;
};

inline void GridBroadphase::sort_cells() {
  if (cells_.empty()) return;
  constexpr uint64_t kMask = (1u << 21) - 1;
  uint64_t lo3[3] = {kMask, kMask, kMask}, hi3[3] = {0, 0, 0};
  for (const auto& c : cells_)
    for (int k = 0; k < 3; ++k) {
      const uint64_t v = (c.first >> (42 - 21 * k)) & kMask;
      lo3[k] = std::min(lo3[k], v);
      hi3[k] = std::max(hi3[k], v);
    }
  const uint64_t nx = hi3[0] - lo3[0] + 1, ny = hi3[1] - lo3[1] + 1, nz = hi3[2] - lo3[2] + 1;
  const uint64_t limit = 8 * cells_.size() + 4096;
  if (nx > limit || ny > limit || nz > limit || nx * ny > limit || nx * ny * nz > limit) {
    std::sort(cells_.begin(), cells_.end());
    return;
  }
  // The block index is lexicographic in (x, y, z) like the packed key. The pass is stable, so
  // entries of one cell keep their `ids` order (ascending ids: the order std::sort gives).
  auto index = [&](uint64_t key) {
    return (((key >> 42) & kMask) - lo3[0]) * ny * nz + (((key >> 21) & kMask) - lo3[1]) * nz +
           ((key & kMask) - lo3[2]);
  };
  count_.assign(nx * ny * nz + 1, 0);
  for (const auto& c : cells_) ++count_[index(c.first) + 1];
  for (size_t b = 1; b < count_.size(); ++b) count_[b] += count_[b - 1];
  sorted_.resize(cells_.size());
  for (const auto& c : cells_) sorted_[count_[index(c.first)]++] = c;
  cells_.swap(sorted_);
}

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
  // A centre beyond the keys' range (a state blowing up; NaN too) clamps to its edge, as pack()
  // does: converting it unclamped overflows int64_t (UBSan found it on a diverging run). Clamped
  // boxes share edge cells and are still tested box against box.
  auto cell = [&](int i, int k) {
    const double c = std::floor(0.5 * (lo[i][k] + hi[i][k]) / h);
    return static_cast<int64_t>(c < kCellLimit ? (c > -kCellLimit ? c : -kCellLimit) : kCellLimit);
  };
  for (int i : ids)
    if ((hi[i] - lo[i]).maxCoeff() <= big)
      cells_.push_back({pack(cell(i, 0), cell(i, 1), cell(i, 2)), i});
  sort_cells();
  // Each pair of neighbouring cells is visited once, from the cell with the smaller key: the same
  // cell (entries after this one) and z+1 in this column, and the 4 columns (dx, dy) = (0, 1),
  // (1, -1), (1, 0), (1, 1), cells z-1..z+1. The first key of each of those columns grows with
  // the entry's own key, so one forward-moving cursor per column finds them: O(n) after the sort.
  constexpr int kDx[4] = {0, 1, 1, 1}, kDy[4] = {1, -1, 0, 1};
  size_t cursor[4] = {0, 0, 0, 0};
  const size_t n = cells_.size();
  // Boxes copied in cell order: a column's entries are contiguous, so the scans read memory in
  // sequence.
  box_.resize(n);
  for (size_t e = 0; e < n; ++e) {
    const int i = cells_[e].second;
    box_[e] = {lo[i], hi[i]};
  }
  for (size_t e = 0; e < n; ++e) {
    const int i = cells_[e].second;
    const Vec3 &ilo = box_[e].first, &ihi = box_[e].second;
    const int64_t x = cell(i, 0), y = cell(i, 1), z = cell(i, 2);
    const auto test = [&](size_t q) {
      const int j = cells_[q].second;
      if (j != i && boxes_overlap(ilo, ihi, box_[q].first, box_[q].second))
        emit(std::min(i, j), std::max(i, j));
    };
    const uint64_t up = pack(x, y, z + 1);
    for (size_t q = e + 1; q < n && cells_[q].first <= up; ++q) test(q);
    for (int r = 0; r < 4; ++r) {
      const uint64_t k0 = pack(x + kDx[r], y + kDy[r], z - 1),
                     k1 = pack(x + kDx[r], y + kDy[r], z + 1);
      size_t& c = cursor[r];
      while (c < n && cells_[c].first < k0) ++c;
      for (size_t q = c; q < n && cells_[q].first <= k1; ++q) test(q);
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
