// `moreau experiment NAME --out DIR [--quick]`: runs one of the report's missing experiments
// (bench/experiment.hpp; docs/benchmark-experiments.md), writes its tidy tables as DIR/<table>.csv
// and its figures as DIR/<experiment>.svg (bench/experiment_plots.cpp), and prints its headline
// numbers. NAME `all` runs the four in turn.
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
  bool quick = false;
};

void run_one(const bench::ExperimentInfo& e, const ExperimentCliOptions& o) {
  std::printf("== %s: %s\n", std::string(e.name).c_str(), std::string(e.question).c_str());
  std::fflush(stdout);
  const bench::ExperimentResult r = e.run({o.quick});
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
  if (o.name == "all") {
    for (const auto& e : bench::experiment_list()) run_one(e, o);
    return;
  }
  const bench::ExperimentInfo* e = bench::find_experiment(o.name);
  if (!e)
    fail("experiment", "unknown experiment '" + o.name + "'; expected one of: " + names + ", all",
         kExitBadInput);
  run_one(*e, o);
}

}  // namespace

void add_experiment(CLI::App& app) {
  auto o = std::make_shared<ExperimentCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "experiment",
      "run one of the report's missing experiments and write its tables (CSV) and figures (SVG)");
  cmd->footer(
      "Experiments: ccp-vs-ncp, softening-vs-proximal, timestep-sweep, sor-sensitivity, all.\n"
      "Writes DIR/<table>.csv and the figures DIR/<experiment>.svg; deterministic. See "
      "docs/benchmark-experiments.md.");
  cmd->add_option("name", o->name, "experiment name, or `all`")->required();
  cmd->add_option("-o,--out", o->out,
                  "output directory for the CSV tables and SVG figures (created)")
      ->required();
  cmd->add_flag("--quick", o->quick, "small sizes: a few seconds per experiment");
  cmd->callback([o] { run_experiment(*o); });
}

}  // namespace moreau::cli
