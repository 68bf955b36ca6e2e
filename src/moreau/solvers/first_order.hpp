#pragma once
// The ADMM family (Alg. 6), APGD and SOR-prox, and the small helpers they share. Every solver
// here honours the softening compliance Problem::R: a non-empty R means it solves the
// regularized problem (eq. 95-96) with D + R in place of D (v_r is already folded into v_f).
#include "moreau/solvers/solver.hpp"

namespace moreau {

// "admm-ccp": ADMM on the SOCP (eq. 19), fixed penalty, no De Saxce term, eta = 0.
void solve_admm_ccp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                    SolverWorkspace& ws, Solution& sol);
// "admm-ncp-fp": proximal ADMM on the NCP (Carpentier), fixed penalty rho_0.
void solve_admm_ncp_fp(const Problem& p, const SolverSettings& s, const WarmStart& w,
                       SolverWorkspace& ws, Solution& sol);
// "admm-ncp-la": the same with linear penalty adaptation (residual balancing, eq. 171).
void solve_admm_ncp_la(const Problem& p, const SolverSettings& s, const WarmStart& w,
                       SolverWorkspace& ws, Solution& sol);
// "admm-ncp-sa": the same with spectral penalty adaptation (eq. 172).
void solve_admm_ncp_sa(const Problem& p, const SolverSettings& s, const WarmStart& w,
                       SolverWorkspace& ws, Solution& sol);
// "apgd": Nesterov-accelerated projected gradient with backtracking and restart (Mazhar et al.
// 2015) on the CCP; param "ncp" = 1 adds the De Saxce fixed point.
void solve_apgd(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                Solution& sol);
// "prox": block SOR-prox (Studer) on the NCP with adaptive r-factors.
void solve_prox(const Problem& p, const SolverSettings& s, const WarmStart& w, SolverWorkspace& ws,
                Solution& sol);

namespace first_order {

// y = (D + R) x: the Delassus operator of the (possibly softened) problem. No allocation.
void multiply_regularized(const Problem& p, const VecX& x, VecX& y);
// (D + R)_ii for block i (top-left size x size of the result).
Mat6 regularized_diagonal_block(const Problem& p, int i);
// s = Gamma(v) on contact blocks, 0 elsewhere (eq. 50, 78).
void de_saxce_term(const Problem& p, const VecX& v, VecX& s);
// out = P_K(x) block by block (eq. 146); out may alias x.
void project_cones(const Problem& p, const VecX& x, VecX& out);
// lambda_max((D + R)) by power iteration from the all-ones vector (deterministic).
double largest_eigenvalue(const Problem& p, int iters, VecX& a, VecX& b);

}  // namespace first_order
}  // namespace moreau
