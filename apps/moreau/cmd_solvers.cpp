// `moreau solvers [NAME...]`: the registered solvers, or the parameter table of the named ones
// (name, default, range, unit, meaning) from the same table that --param and scene JSON use.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "moreau/solvers/solver_params.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

void run_solvers(const std::vector<std::string>& names, bool markdown) {
  if (markdown) {
    std::cout << param_tables_markdown();
    return;
  }
  if (names.empty()) {
    size_t w = 0;
    for (const SolverInfo& s : solver_registry()) w = std::max(w, s.name.size());
    for (const SolverInfo& s : solver_registry())
      std::cout << s.name << std::string(w - s.name.size() + 2, ' ') << s.problem
                << std::string(s.problem.size() < 9 ? 11 - s.problem.size() : 2, ' ')
                << s.description << '\n';
    return;
  }
  for (const std::string& n : names)
    if (!find_solver(n))
      fail("solvers", "unknown solver '" + n + "'; available: " + solver_names(), kExitBadInput);
  for (size_t i = 0; i < names.size(); ++i) {
    const SolverInfo& info = *find_solver(names[i]);
    std::cout << (i ? "\n" : "") << param_table(info) << "  handles: "
              << (info.contacts_only      ? "contacts only (joint and limit rows are declined)"
                  : info.handles_contacts ? "contacts, limits and joints"
                                          : "joints only")
              << "; softening R: " << (info.handles_softening ? "solved" : "refused") << '\n';
  }
}

}  // namespace

void add_solvers(CLI::App& app) {
  auto names = std::make_shared<std::vector<std::string>>();
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "solvers", "list the solvers, or the parameters of the named ones (for --param)");
  cmd->footer(
      "Without NAME: one line per solver (name, problem, description). With NAME: its parameters "
      "(name, default, range, unit, meaning), the keys --param and scene JSON "
      "solver_settings.params accept. See docs/solvers.md.");
  cmd->add_option("name", *names, "solver names");
  cmd->add_flag("--markdown", *markdown,
                "every solver's table as Markdown (the tables of docs/solvers.md)");
  cmd->callback([names, markdown] { run_solvers(*names, *markdown); });
}

}  // namespace moreau::cli
