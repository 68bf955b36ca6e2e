#pragma once
// The projective-splitting (PGS) family of Table I: block Gauss-Seidel / SOR sweeps (Alg. 5) over
// joints, limits and contacts in the Problem's order, with one of the local contact solvers of
// Alg. 2-4 (solvers/local_solvers.hpp). Joint blocks are solved exactly (regularized D_ii^-1),
// limits on R_+. Iterates on the block-sparse D (O(nnz) per sweep), allocation-free after the
// first call with a given size. Honours softening: with a non-empty Problem::R the sweep uses
// D + R (eq. 95). Parameters (SolverSettings::params, documented in docs/solvers.md):
//   omega (1.0)          SOR relaxation, (0, 2); omega > 1 re-projects the relaxed iterate
//   omega_min (omega)    value the relaxation decays toward
//   omega_decay (1.0)    per sweep: omega <- omega_min + omega_decay (omega - omega_min)
//   check_every (10)     full residual check period (also whenever the iterate change <= tol)
//   regularization (1e-12) relative diagonal shift of D_ii before inverting it
//   blowup (1e10)        Diverged when the residual exceeds blowup * max(first residual, tol)
//   de_saxce (1)         pgs-ccp only: 0 drops the De Saxce term (pure CCP, eq. 18)
//   es_tol (tol)         raisim-ds-es only: velocity tolerance of the plateau test on r_f
//                        (eq. 160): stop when r_f <= es_tol^2 / (2 L I_total), L the largest
//                        eigenvalue bound of the diagonal blocks (pgs_family.cpp, plateau_level)
#include "moreau/solvers/solver.hpp"

namespace moreau {

// pgs-ccp: Alg. 2 (Euclidean cone step 3 / tr D_kk) with the De Saxce term (Table I: yes); its
// fixed points are NCP solutions. With param de_saxce = 0 it solves the CCP (eq. 18).
void solve_pgs_ccp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                   SolverWorkspace& ws, Solution& sol);
// pgs-ncp: Alg. 3 (decoupled normal / tangential steps), no De Saxce term.
void solve_pgs_ncp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                   SolverWorkspace& ws, Solution& sol);
// nbgs: Alg. 4 with the local QCP (eq. 152), slip by the quartic (P_MDP, Preclik); not the
// Coulomb law when D_kk couples normal and tangent (solvers/local_mdp.hpp).
void solve_nbgs(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                Solution& sol);
// nbgs-exact: the exact single-contact Coulomb law (Alg. 4 decision tree), slip angle by a quartic.
void solve_nbgs_exact(const Problem& p, const SolverSettings& s, const WarmStart& w,
                      SolverWorkspace& ws, Solution& sol);
// raisim: Alg. 4 with the local QCP (eq. 152), slip by bisection (P_BS, Hwangbo).
void solve_raisim(const Problem& p, const SolverSettings& s, const WarmStart& w,
                  SolverWorkspace& ws, Solution& sol);
// raisim-ds: raisim's P_BS on the De Saxce-corrected QCP, s_k = Gamma(v_k) (Le Lidec et al.).
void solve_raisim_ds(const Problem& p, const SolverSettings& s, const WarmStart& w,
                     SolverWorkspace& ws, Solution& sol);
// raisim-ds-es: raisim-ds stopped early on the relative objective improvement r_f (eq. 160).
void solve_raisim_ds_es(const Problem& p, const SolverSettings& s, const WarmStart& w,
                        SolverWorkspace& ws, Solution& sol);

}  // namespace moreau
