// `moreau compare MODEL.xml`: MuJoCo and moreau on the same MJCF model, same dt and duration;
// writes DIR/compare.csv, compare.md and compare.svg (docs/performance.md).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "moreau/bench/compare_mujoco.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

struct CompareCliOptions {
  bench::CompareOptions run;
  std::string out;
  bool json = false;
};

void run_compare_cmd(const CompareCliOptions& o) {
  if (!bench::compare_available())
    fail("compare", "this moreau was built without MuJoCo (install libmujoco-dev and rebuild)",
         kExitBadInput);
  Result<bench::CompareResult> c = bench::run_compare(o.run);
  if (!c) fail("compare", c.error().message(), kExitBadInput);
  for (const std::string& w : c->moreau.warnings) std::cerr << "moreau: warning: " << w << '\n';
  if (!o.out.empty())
    if (std::string e = bench::write_compare(*c, o.out); !e.empty())
      fail("compare", e, kExitFailure);
  if (o.json)
    std::cout << bench::compare_json(*c) << std::endl;
  else
    std::cout << bench::compare_markdown(*c);
  if (!c->mujoco.completed || !c->moreau.completed) throw Exit{kExitFailure};
}

}  // namespace

void add_compare(CLI::App& app) {
  auto o = std::make_shared<CompareCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "run an MJCF model in MuJoCo and in moreau side by side (needs MuJoCo)");
  cmd->footer(
      "MuJoCo keeps the model's own solver options (dt overridden); moreau imports the model and "
      "steps it with its default solver (or --solver). Both start from the first keyframe when "
      "there is one. Writes DIR/compare.csv (per step), compare.md and compare.svg.\nExit "
      "status: 0 both ran to the end; 1 one stopped early; 2 bad input. See "
      "docs/performance.md.");
  cmd->add_option("model", o->run.model, "MJCF model file (.xml)")->required();
  cmd->add_option("--dt", o->run.dt, "time step of both engines [s] (default 0.005)");
  cmd->add_option("--duration", o->run.duration, "simulated time [s] (default 5)");
  cmd->add_option("--solver", o->run.solver, "moreau's solver (default: the scene's)");
  cmd->add_option("--out", o->out, "directory for compare.csv, compare.md, compare.svg");
  cmd->add_flag("--json", o->json, "print the summary as JSON instead of the table");
  cmd->add_flag("!--no-fast-path", o->run.fast_path,
                "moreau solves the full problem (joint rows not eliminated; docs/performance.md)");
  cmd->callback([o] { run_compare_cmd(*o); });
}

}  // namespace moreau::cli
