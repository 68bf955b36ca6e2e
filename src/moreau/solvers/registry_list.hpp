#pragma once
#include <vector>

#include "moreau/solvers/solver.hpp"

namespace moreau {
// The table of every solver (registry_list.cpp): one line per solver, in the README's order.
std::vector<SolverInfo> make_solver_registry();
}  // namespace moreau
