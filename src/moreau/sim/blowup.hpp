#pragma once
// A run that blows up, said so at the step it happens (docs/cli.md, "--no-blowup-check"): the
// mechanical energy jumping by orders of magnitude in one step, a joint pulled apart, a body deep
// inside another. Each is far beyond what a converged step of a sane model produces.
#include <string>
#include <vector>

#include "moreau/collision/contact.hpp"
#include "moreau/model/model.hpp"

namespace moreau {

struct BlowupLimits {
  // E_after - E_before > (energy_factor - 1) max(|E_before|, |E_initial|, 1 J).
  double energy_factor = 100.0;
  double joint_violation = 0.01;  // |f_J| of one joint's rows [m or rad]
  double penetration = 0.1;       // depth of one contact [m]
};

// What blew up in the step that led from energy e_before to state s (energy e_after, constraint
// violation `violation` as constraint_violation(m, s) gives it) with these contacts: a message
// naming the quantity, its value and the joint or bodies; empty when nothing. The joints are
// evaluated again only when `violation` exceeds the limit, to name the one.
std::string blowup(const Model& m, const State& s, double violation, double e_initial,
                   double e_before, double e_after, const std::vector<Contact>& contacts,
                   const BlowupLimits& limits = {});

}  // namespace moreau
