#include "moreau/solvers/registry_list.hpp"

#include "moreau/solvers/first_order.hpp"
#include "moreau/solvers/lemke.hpp"
#include "moreau/solvers/ngn.hpp"
#include "moreau/solvers/nsn.hpp"
#include "moreau/solvers/peer_siconos.hpp"
#include "moreau/solvers/pgs_basic_direct.hpp"
#include "moreau/solvers/pgs_family.hpp"
#include "moreau/solvers/prox_fp.hpp"
#include "moreau/solvers/sap.hpp"
#include "moreau/solvers/solver_params.hpp"

namespace moreau {

// One line per solver.
// clang-format off
std::vector<SolverInfo> make_solver_registry() {
  return {
      {"pgs", "NCP", "plain projected Gauss-Seidel (exact joint blocks, decoupled contact projector)", solve_pgs_basic, true, false, solver_params::pgs_basic()},
      {"direct", "bilateral", "LDLT of D + R + eps I; joints only, fails on unilateral rows", solve_direct, false, true, solver_params::direct()},
      {"pgs-ccp", "NCP", "SOR with the CCP cone step (Alg. 2) + De Saxce term (Table I): NCP fixed point; de_saxce=0: CCP", solve_pgs_ccp, true, false, solver_params::pgs_ccp()},
      {"pgs-ncp", "NCP", "SOR with the decoupled normal/tangent projector (Alg. 3), no De Saxce", solve_pgs_ncp, true, false, solver_params::pgs_sweep()},
      {"nbgs", "NCP", "SOR with the local QCP (Alg. 4, eq. 152), slip by quartic (P_MDP); not Coulomb under normal-tangent coupling", solve_nbgs, true, false, solver_params::pgs_sweep()},
      {"nbgs-exact", "NCP", "SOR with the exact single-contact Coulomb solve (Alg. 4 decision tree), slip angle by quartic", solve_nbgs_exact, true, false, solver_params::pgs_sweep()},
      {"raisim", "NCP", "SOR with the local QCP (Alg. 4, eq. 152), slip by bisection (P_BS); not Coulomb under normal-tangent coupling", solve_raisim, true, false, solver_params::pgs_sweep()},
      {"raisim-ds", "NCP", "raisim's P_BS on the De Saxce-corrected QCP (local estimate s = Gamma(v))", solve_raisim_ds, true, false, solver_params::pgs_sweep()},
      {"raisim-ds-es", "NCP", "raisim-ds stopped on the relative objective improvement (eq. 160)", solve_raisim_ds_es, true, false, solver_params::raisim_ds_es()},
      {"admm-ccp", "CCP", "ADMM on the SOCP, fixed penalty (Alg. 6, s = 0, eta = 0)", solve_admm_ccp, true, true, solver_params::admm_ccp()},
      {"admm-ncp-fp", "NCP", "proximal ADMM with De Saxce estimate, fixed penalty (Alg. 6)", solve_admm_ncp_fp, true, true, solver_params::admm_ncp_fp()},
      {"admm-ncp-la", "NCP", "proximal ADMM, linear penalty adaptation (eq. 171)", solve_admm_ncp_la, true, true, solver_params::admm_ncp_la()},
      {"admm-ncp-sa", "NCP", "proximal ADMM, spectral penalty adaptation (eq. 172)", solve_admm_ncp_sa, true, true, solver_params::admm_ncp_sa()},
      {"apgd", "CCP", "Nesterov-accelerated projected gradient, backtracking + restart (Mazhar 2015)", solve_apgd, true, false, solver_params::apgd()},
      {"prox", "NCP", "block SOR-prox with adaptive r-factors (Studer; eq. 143-145)", solve_prox, true, false, solver_params::prox()},
      {"ngn", "NCP", "implicit complementarity x -> f(x), v(x) by non-smooth Gauss-Newton/LM with dogleg (Todorov 2010)", solve_ngn, true, true, solver_params::ngn(), true, false, false, true, false},
      {"nsn", "NCP", "semismooth Newton on the natural map, Levenberg-Marquardt steps + Armijo, dense or sparse (KLU or SparseLU) Newton system; warm-started problems", solve_nsn, true, true, solver_params::nsn(), true, false, false, false},
      {"lemke", "LCP", "Stewart-Trinkle friction-pyramid LCP by Lemke pivoting (n_d = 8 directions)", solve_lemke, true, true, solver_params::lemke(), true, false, false, true, false},
      {"prox-fp", "NCP", "prox fixed-point iteration, Gauss-Seidel, r = omega / G_ii (Schindler et al. 2011)", solve_prox_fp, true, false, solver_params::prox_fp()},
      {"sap", "CCP", "SAP: unconstrained convex primal of the regularized problem, Newton + exact line search (Castro 2023)", solve_sap, true, false, solver_params::sap(), false, false, false, true, false},
#ifdef MOREAU_HAVE_SICONOS
      // Peers (docs/performance.md): Siconos 4.4's fc3d solvers on contact-only problems.
      {"siconos-nsgs", "NCP", "Siconos fc3d NSGS: Gauss-Seidel over contacts, local Alart-Curnier Newton (peer)", solve_siconos_nsgs, true, false, solver_params::siconos(), false, true, true},
      {"siconos-prox", "NCP", "Siconos fc3d PROX: proximal point, inner Alart-Curnier Newton (peer)", solve_siconos_prox, true, false, solver_params::siconos(), false, true, true},
      {"siconos-admm", "NCP", "Siconos fc3d ADMM with De Saxce change of variable (peer)", solve_siconos_admm, true, false, solver_params::siconos(), false, true, true},
      {"siconos-nsn-ac", "NCP", "Siconos fc3d non-smooth Newton on the Alart-Curnier function (peer)", solve_siconos_nsn_ac, true, false, solver_params::siconos(), false, true, true},
      {"siconos-nsn-fb", "NCP", "Siconos fc3d non-smooth Newton on the Fischer-Burmeister function (peer)", solve_siconos_nsn_fb, true, false, solver_params::siconos(), false, true, true},
#endif
  };
}
// clang-format on

}  // namespace moreau
