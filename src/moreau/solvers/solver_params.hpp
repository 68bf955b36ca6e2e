#pragma once
// Per-solver parameter tables (ParamSpec rows, solver_settings.hpp) and the one way to set a
// parameter by name: the command line (--param key=value), scene JSON (solver_settings.params),
// `moreau solvers NAME` and docs/solvers.md all go through these tables.
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "moreau/solvers/solver.hpp"

namespace moreau {

// The tables the registry (registry_list.cpp) hands to each SolverInfo.
namespace solver_params {
std::span<const ParamSpec> pgs_basic();
std::span<const ParamSpec> pgs_ccp();
std::span<const ParamSpec> pgs_sweep();  // pgs-ncp, nbgs, raisim, raisim-ds
std::span<const ParamSpec> raisim_ds_es();
std::span<const ParamSpec> admm_ccp();
std::span<const ParamSpec> admm_ncp_fp();
std::span<const ParamSpec> admm_ncp_la();
std::span<const ParamSpec> admm_ncp_sa();
std::span<const ParamSpec> apgd();
std::span<const ParamSpec> prox();
std::span<const ParamSpec> ngn();
std::span<const ParamSpec> nsn();
std::span<const ParamSpec> lemke();
std::span<const ParamSpec> sap();
std::span<const ParamSpec> prox_fp();
std::span<const ParamSpec> direct();
std::span<const ParamSpec> siconos();  // siconos-* (peers)
}  // namespace solver_params

const ParamSpec* find_param(const SolverInfo& solver, std::string_view key);

// Sets `key` of `solver` to `value`. Returns "" on success, else the reason (unknown key, value
// out of range, not a whole number), followed by the solver's valid keys with their ranges.
std::string set_solver_param(SolverSettings& s, const SolverInfo& solver, std::string_view key,
                             double value);

// "omega [0, 10], omega_min [0, 10], ..." or "(none)".
std::string valid_params(const SolverInfo& solver);
// The accepted range of one parameter, e.g. "[0, 10]", "(0, inf)", "{0, 1}".
std::string param_range(const ParamSpec& p);
// The default as printed: a number, or the setting it follows ("= tol").
std::string param_default(const ParamSpec& p);
// The table as text, one parameter a line: name, default, range, unit, meaning.
std::string param_table(const SolverInfo& solver);

// Every moreau solver's table as Markdown (one "### `name`" section per solver; peers, which a
// build may lack, are left out), the text between the
// markers of docs/solvers.md's "Parameter tables" (`moreau solvers --markdown`).
std::string param_tables_markdown();

// The parameters of `solver` whose stored value differs from a default-constructed SolverSettings
// (what scene JSON writes back; reading them with set_solver_param restores `s`).
std::vector<std::pair<std::string_view, double>> changed_params(const SolverSettings& s,
                                                                const SolverInfo& solver);

// Applies "key=number" entries (the command line's repeatable --param) to every solver in `solvers`
// whose table has the key. Returns "" on success, else the message the command line prints
// ("--param 'k=v': ..."): a malformed entry, a key no listed solver has (listing the valid keys
// with their ranges), or a value out of range. The Python module uses it for its settings.
std::string apply_solver_params(SolverSettings& s, const std::vector<std::string>& params,
                                const std::vector<std::string>& solvers);

}  // namespace moreau
