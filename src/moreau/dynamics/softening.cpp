#include "moreau/dynamics/softening.hpp"

#include "moreau/dynamics/problem.hpp"

namespace moreau {

// Placeholder: the regularizer R and regulation bias v_r of eq. 106 land with the solver
// families (issue 4). Until then softening leaves the problem hard.
void apply_softening(Problem& p, const SofteningSettings& s) {
  (void)s;
  p.R.resize(0);
  p.v_r.resize(0);
}

}  // namespace moreau
