#pragma once
// Solver-agnostic accuracy metrics (report eq. 173-176), all L-infinity, NCP quantities for every
// solver. They read a Problem and the returned (lambda, v_plus) only: no solver header here, the
// residuals come from moreau/ncp.
#include "moreau/dynamics/problem.hpp"

namespace moreau::bench {

struct Metrics {
  double r_pen = 0.0;     // (173) worst violation of f(s+) ~ f(s) + dt J u+ (first order;
                          //       unilateral rows count min(0, .), friction rows none)
  double r_dual = 0.0;    // (174)
  double r_compl = 0.0;   // (175)
  double r_natmap = 0.0;  // (176)
  double r_primal = 0.0;  // (156), reported though not among the four
};
// lambda and v_plus as returned in a Solution (v_plus = D lambda + v_f - v_r).
Metrics evaluate_metrics(const Problem& p, const VecX& lambda, const VecX& v_plus);

}  // namespace moreau::bench
