#pragma once
// The fast path's contract, checked per step by its tests: the reported residual is the full
// problem's natural map (eq. 163) of the full impulse, and a converged step meets tol there.
#include <gtest/gtest.h>

#include "moreau/ncp/residuals.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::test {

// Checks sim's last step; returns whether it converged.
inline bool check_full_natural_map(const Simulator& sim, int step) {
  const Problem& p = sim.problem();
  const Solution& x = sim.solution();
  GrowVec v(p.nl), scratch;
  p.D.multiply(x.lambda.data(), v.data());
  v += p.v_f;
  const double natmap = ncp_residuals(p, x.lambda, v, true, scratch).natmap;
  EXPECT_NEAR(natmap, x.residual, 1e-12 * (1.0 + natmap)) << "step " << step;
  if (!x.converged()) return false;
  EXPECT_LE(natmap, sim.settings().solver_settings.tol) << "step " << step;
  return true;
}

}  // namespace moreau::test
