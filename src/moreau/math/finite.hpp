#pragma once
#include <cmath>
#include <span>

namespace moreau {

inline bool all_finite(std::span<const double> x) {
  for (double v : x)
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace moreau
