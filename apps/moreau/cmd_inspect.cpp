// Placeholder: `moreau inspect` is being written.
#include "commands.hpp"
namespace moreau::cli {
void add_inspect(CLI::App& app) { app.add_subcommand("inspect", "print a model's structure (not yet available)"); }
}  // namespace moreau::cli
