#pragma once
// Options shared by the subcommands that load a scene: `--set key=value` scene parameters.
#include <string>
#include <vector>

#include "commands.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau::cli {

// Registers the repeatable `--set key=value` option on `cmd`, storing the raw strings in `sets`.
void add_set_option(CLI::App* cmd, std::vector<std::string>& sets);

// Splits "key=value" strings into SceneParams. On a malformed entry prints
// "moreau <command>: ..." on stderr and throws Exit{kExitBadInput}.
SceneParams parse_scene_params(const std::vector<std::string>& sets, const char* command);

// load_scene() that prints the error on stderr and throws Exit{kExitBadInput} on failure.
Scene load_scene_or_exit(const std::string& name, const SceneParams& params, const char* command);

// Applies repeatable --param key=number to every solver in `solvers` whose parameter table
// (docs/solvers.md, `moreau solvers NAME`) has the key. Prints the error and throws
// Exit{kExitBadInput} on a malformed entry, a key no listed solver has, or a value out of range
// (the message lists the valid keys with their ranges).
void apply_solver_params_or_exit(SolverSettings& s, const std::vector<std::string>& params,
                                 const std::vector<std::string>& solvers, const char* command);

// SolverSettings from --tol, --max-iter and --param (apply_solver_params_or_exit); prints the
// error and throws Exit{kExitBadInput} on tol <= 0, max_iters < 1 or a bad --param.
SolverSettings solver_settings_or_exit(double tol, int max_iters,
                                       const std::vector<std::string>& params,
                                       const std::vector<std::string>& solvers,
                                       const char* command);

// Prints "moreau <command>: error: <message>" on stderr and throws Exit{code}.
[[noreturn]] void fail(const char* command, const std::string& message, int code);

}  // namespace moreau::cli
