#pragma once
// The `moreau` command line: one file per subcommand (cmd_<name>.cpp), each registering itself on
// the CLI11 app through an add_<name>() function listed in main.cpp.
#include <CLI/CLI.hpp>

namespace moreau::cli {

// Exit codes shared by every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;   // the run itself failed (solver diverged, NaN during a run)
constexpr int kExitBadInput = 2;  // bad command line, scene, model or problem file

// A subcommand's callback throws this to end the program with a code (after printing its message).
struct Exit {
  int code;
};

void add_simulate(CLI::App& app);
void add_inspect(CLI::App& app);
void add_convert(CLI::App& app);
void add_solve(CLI::App& app);
void add_solvers(CLI::App& app);
void add_bench(CLI::App& app, int argc, char** argv);  // keeps argv for the report
void add_experiment(CLI::App& app);
void add_compare(CLI::App& app);
void add_view(CLI::App& app);

}  // namespace moreau::cli
