#pragma once
// One home for the block-wise cone projections, the De Saxce term, the NCP residuals and the
// natural map (report eq. 146, 156-164), used by every solver's iteration and stopping test and by
// the solver-agnostic metrics (eq. 173-176). All norms are L-infinity.
#include "moreau/dynamics/problem.hpp"

namespace moreau {

// Outputs are GrowVec (resized to the input, allocation-free once large enough) or, where the
// size is given, a view.
// P_K(x) block by block (eq. 146): R^m for joints, R_+ for limits, K_mu for contacts. out may
// alias x.
void project_primal(const Problem& p, const VecCRef& x, GrowVec& out);
// P_{K*}(v) block by block: {0} for joints, R_+ for limits, K*_mu for contacts.
void project_dual(const Problem& p, const VecCRef& v, GrowVec& out);
// v_hat = v + Gamma(v) on contact blocks (eq. 14, 51).
void augment_de_saxce(const Problem& p, const VecCRef& v, GrowVec& v_hat);
// s = Gamma(v) on contact blocks, 0 elsewhere (eq. 50, 78); s must have nl entries.
void de_saxce_term(const Problem& p, const VecCRef& v, VecRef s);

struct NcpResiduals {
  double primal = 0.0;  // ||lambda - P_K(lambda)||            (eq. 156)
  double dual = 0.0;    // ||v_hat - P_{K*}(v_hat)||             (eq. 157, 174)
  double compl_ = 0.0;  // max_j |lambda_j . v_hat_j|            (eq. 158, 175)
  double natmap = 0.0;  // ||lambda - P_K(lambda - v_hat)||      (eq. 163, 176)
};

// Residuals of lambda for the NCP (De Saxce-augmented, ncp = true) or the CCP (ncp = false),
// with v = D lambda + v_f given. Allocation-free once `scratch` has had nl entries.
NcpResiduals ncp_residuals(const Problem& p, const VecCRef& lambda, const VecCRef& v, bool ncp,
                           GrowVec& scratch);
NcpResiduals ncp_residuals(const Problem& p, const VecCRef& lambda, const VecCRef& v,
                           bool ncp = true);

}  // namespace moreau
