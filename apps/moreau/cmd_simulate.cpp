// Placeholder: `moreau simulate` is being written.
#include "commands.hpp"
namespace moreau::cli {
void add_simulate(CLI::App& app) { app.add_subcommand("simulate", "simulate a scene (not yet available)"); }
}  // namespace moreau::cli
