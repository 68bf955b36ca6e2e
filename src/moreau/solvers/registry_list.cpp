#include "moreau/solvers/registry_list.hpp"

#include "moreau/solvers/foundation_solvers.hpp"

namespace moreau {

std::vector<SolverInfo> make_solver_registry() {
  return {
      {"pgs", "NCP", "plain projected Gauss-Seidel (exact joint blocks, decoupled contact projector)", solve_pgs_basic},
      {"direct", "bilateral", "LDLT of D + eps I; joints only, fails on unilateral rows", solve_direct, false},
  };
}

}  // namespace moreau
