#pragma once
// The ADMM family (Alg. 6), APGD and SOR-prox, and the small helpers they share. Every solver
// here honours the softening compliance Problem::R: a non-empty R means it solves the
// regularized problem (eq. 95-96) with D + R in place of D (v_r is already folded into v_f).
// Cone projections, the De Saxce term and the diagonal blocks come from moreau/ncp.
#include "moreau/ncp/blocks.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau {

// "admm-ccp": ADMM on the SOCP (eq. 19), fixed penalty, no De Saxce term, eta = 0.
extern const SolveFn solve_admm_ccp;
// "admm-ncp-fp": proximal ADMM on the NCP (Carpentier), fixed penalty rho_0.
extern const SolveFn solve_admm_ncp_fp;
// "admm-ncp-la": the same with linear penalty adaptation (residual balancing, eq. 171).
extern const SolveFn solve_admm_ncp_la;
// "admm-ncp-sa": the same with spectral penalty adaptation (eq. 172).
extern const SolveFn solve_admm_ncp_sa;
// "apgd": Nesterov-accelerated projected gradient with backtracking and restart (Mazhar et al.
// 2015) on the CCP; param "ncp" = 1 adds the De Saxce fixed point.
void solve_apgd(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                Solution& sol);
// "prox": block SOR-prox (Studer) on the NCP with adaptive r-factors.
void solve_prox(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                Solution& sol);

namespace first_order {

// y = (D + R) x: the Delassus operator of the (possibly softened) problem. No allocation.
void multiply_regularized(const Problem& p, const VecCRef& x, VecRef y);
// lambda_max((D + R)) by power iteration from the all-ones vector (deterministic).
double largest_eigenvalue(const Problem& p, int iters, GrowVec& a, GrowVec& b);

}  // namespace first_order
}  // namespace moreau
