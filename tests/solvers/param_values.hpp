#pragma once
// Test helper for the solver parameter tables (solvers/solver_params.hpp).
#include <cmath>

#include "moreau/solvers/solver_settings.hpp"

namespace moreau::testing_params {

// A value other than the default inside the accepted range.
inline double other_value(const ParamSpec& p) {
  for (double v :
       {p.default_value + 1.0, p.default_value * 0.5, p.default_value - 1.0, p.min, p.max})
    if (v != p.default_value && v >= p.min && v <= p.max && std::isfinite(v) &&
        (!p.integer || v == std::floor(v)))
      return v;
  return p.default_value;
}

}  // namespace moreau::testing_params
