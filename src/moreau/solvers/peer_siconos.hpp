#pragma once
// Siconos's fc3d solvers as registered moreau solvers (siconos-*; docs/performance.md), present
// when moreau is built with Siconos numerics (MOREAU_HAVE_SICONOS, cmake/optional_deps.cmake).
#include "moreau/solvers/solver.hpp"

namespace moreau {

#ifdef MOREAU_HAVE_SICONOS
void solve_siconos_nsgs(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                        Solution&);
void solve_siconos_prox(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                        Solution&);
void solve_siconos_admm(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                        Solution&);
void solve_siconos_nsn_ac(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                          Solution&);
void solve_siconos_nsn_fb(const Problem&, const SolverSettings&, const WarmStart&, SolverWorkspace&,
                          Solution&);
#endif

}  // namespace moreau
