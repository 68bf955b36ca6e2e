// `moreau experiment NAME --out DIR [--quick]`: runs one of the report's missing experiments
// (bench/experiment.hpp; docs/benchmark-experiments.md), writes its tidy tables as DIR/<table>.csv
// and its figures as DIR/<experiment>.svg (bench/experiment_plots.cpp), and prints its headline
// numbers. NAME `all` runs them all in turn.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "moreau/bench/experiment.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

struct ExperimentCliOptions {
  std::string name, out;
  bool quick = false, full = false;
};

// Runs one experiment, writes its tables and figures, and appends its summary numbers.
void run_one(const bench::ExperimentInfo& e, const ExperimentCliOptions& o,
             std::vector<std::pair<std::string, double>>& summary,
             std::vector<std::pair<std::string, std::vector<double>>>& lists,
             std::vector<std::pair<std::string, std::string>>& text) {
  std::printf("== %s: %s\n", std::string(e.name).c_str(), std::string(e.question).c_str());
  std::printf("  every step solves the full Problem with the named solver (no fast path)\n");
  std::fflush(stdout);
  const bench::ExperimentResult r = e.run({o.quick, o.full});
  summary.insert(summary.end(), r.summary.begin(), r.summary.end());
  lists.insert(lists.end(), r.summary_lists.begin(), r.summary_lists.end());
  text.insert(text.end(), r.summary_text.begin(), r.summary_text.end());
  for (const std::string& line : r.headlines) std::printf("  %s\n", line.c_str());
  auto paths = bench::write_tables(r, o.out);
  if (!paths) fail("experiment", paths.error().message(), kExitFailure);
  for (const std::string& p : *paths) std::printf("  wrote %s\n", p.c_str());
  auto figures = bench::write_figures(r, o.out);
  if (!figures) fail("experiment", figures.error().message(), kExitFailure);
  for (const std::string& p : *figures) std::printf("  wrote %s\n", p.c_str());
  std::fflush(stdout);
}

void run_experiment(const ExperimentCliOptions& o) {
  std::string names;
  for (const auto& e : bench::experiment_list())
    names += (names.empty() ? "" : ", ") + std::string(e.name);
  std::vector<std::pair<std::string, double>> summary;
  std::vector<std::pair<std::string, std::vector<double>>> lists;
  std::vector<std::pair<std::string, std::string>> text;
  if (o.name == "all") {
    for (const auto& e : bench::experiment_list()) run_one(e, o, summary, lists, text);
  } else {
    const bench::ExperimentInfo* e = bench::find_experiment(o.name);
    if (!e)
      fail("experiment", "unknown experiment '" + o.name + "'; expected one of: " + names + ", all",
           kExitBadInput);
    run_one(*e, o, summary, lists, text);
  }
  if (summary.empty() && lists.empty() && text.empty()) return;
  auto path = bench::write_summary(summary, o.out, lists, text);
  if (!path) fail("experiment", path.error().message(), kExitFailure);
  std::printf("  wrote %s\n", path->c_str());
}

}  // namespace

void add_experiment(CLI::App& app) {
  auto o = std::make_shared<ExperimentCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "experiment",
      "run one of the report's missing experiments and write its tables (CSV) and figures (SVG)");
  cmd->footer(
      "Experiments: ccp-vs-ncp, softening-vs-proximal, timestep-sweep, sor-sensitivity,\n"
      "sap-spring-cylinder, sap-clutter, nmdp-stability, all.\n"
      "Writes DIR/<table>.csv, the figures DIR/<experiment>.svg and, for the SAP experiments and\n"
      "nmdp-stability, DIR/summary.json; deterministic except the wall-clock columns of "
      "sap-clutter-scaling. See "
      "docs/benchmark-experiments.md.");
  cmd->add_option("name", o->name, "experiment name, or `all`")->required();
  cmd->add_option("-o,--out", o->out,
                  "output directory for the CSV tables and SVG figures (created)")
      ->required();
  cmd->add_flag("--quick", o->quick, "small sizes: a few seconds per experiment");
  cmd->add_flag("--full", o->full, "also the long variants (sap-clutter with n = 160: minutes)");
  cmd->callback([o] { run_experiment(*o); });
}

}  // namespace moreau::cli
