#pragma once
// The Solution value returned by every solver.
#include <string>
#include <vector>

#include "moreau/math/growable.hpp"

namespace moreau {

enum class SolveStatus : uint8_t {
  Converged,      // stopping test met
  MaxIterations,  // iteration cap reached, or stalled short of tol (message says); last iterate
  Diverged,       // iterates blew up or became non-finite; lambda is not an answer
  Failed,         // the method cannot proceed (factorization failed, ray termination, ...)
};
const char* status_name(SolveStatus s);

struct Solution {
  GrowVec lambda;  // impulses, nl [N s | N m s]
  GrowVec v_plus;  // D lambda + v_f (minus the softening bias v_r when present), nl
  SolveStatus status = SolveStatus::Failed;
  int iterations = 0;
  double solve_time_s = 0.0;
  // The solve's set-up (ADMM's factorization, the PGS family's inverse diagonal blocks, APGD's
  // scaling and step size, Siconos's matrix), set by solvers with a distinct set-up phase (the
  // others leave 0), and the rest, solve_time_s - setup_time_s.
  double setup_time_s = 0.0;
  double iteration_time_s = 0.0;
  double residual = 0.0;      // the solver's own stopping quantity at exit
  std::vector<double> trace;  // residual per iteration (when SolverSettings::trace)
  std::string message;        // human-readable detail on failure
  int fallbacks = 0;          // local solves that used a fallback method (nbgs: quartic rejected)
  bool converged() const { return status == SolveStatus::Converged; }
};

}  // namespace moreau
