#pragma once
// The two simplest solvers: plain projected Gauss-Seidel ("pgs") and the bilateral-only direct
// factorisation ("direct"). Their parameters: SolverSettings::pgs.omega, ::direct.regularization.
#include "moreau/solvers/solver.hpp"

namespace moreau {

// "pgs": plain projected Gauss-Seidel on (D + R) lambda + v_f (R: softening, eq. 95; 0 without).
// Joint blocks solved exactly ((D + R)_ii^-1), limits on R_+, contacts with the decoupled NCP
// local projector (Alg. 3). Parameter: omega (SOR, 1).
void solve_pgs_basic(const Problem& p, const SolverSettings& s, const WarmStart& w,
                     SolverWorkspace& ws, Solution& sol);

// "direct": bilateral-only problems, (D + R) lambda = -v_f by an LDLT of D + R + eps I (dense up
// to 512 rows, sparse simplicial LDLT above) and 3 refinement steps. Parameter: regularization
// (relative eps, 1e-10).
void solve_direct(const Problem& p, const SolverSettings& s, const WarmStart& w,
                  SolverWorkspace& ws, Solution& sol);

}  // namespace moreau
