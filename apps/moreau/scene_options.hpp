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

// SolverSettings from --tol, --max-iter and repeatable --param key=number; prints the error and
// throws Exit{kExitBadInput} on tol <= 0, max_iters < 1 or a malformed --param.
SolverSettings solver_settings_or_exit(double tol, int max_iters,
                                       const std::vector<std::string>& params, const char* command);

// Prints "moreau <command>: error: <message>" on stderr and throws Exit{code}.
[[noreturn]] void fail(const char* command, const std::string& message, int code);

}  // namespace moreau::cli
