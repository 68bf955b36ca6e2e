// The default path's convergence per system (docs/cli.md, `moreau bench`; report.md's "Steps
// unconverged on the default path"): the scene run as `moreau simulate NAME` runs it, every
// step's status counted.
#include <chrono>
#include <cmath>

#include "moreau/bench/bench.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::bench {

DefaultPathRun run_default_path(const std::string& scene, const CollectSettings& cs) {
  DefaultPathRun run;
  run.system = scene;
  Result<Scene> loaded = load_run_scene(scene, cs);
  if (!loaded) {
    run.error = loaded.error().message();
    return run;
  }
  const Scene& sc = *loaded;
  run.system = sc.name;
  run.solver = sc.settings.solver;
  run.fast_path = sc.settings.fast_path;
  const int steps = static_cast<int>(std::llround(sc.duration / sc.settings.dt));
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k) {
    if (cs.stop && cs.stop()) {
      run.error = "stopped";
      break;
    }
    if (!sim.step(s)) {
      run.error = "step " + std::to_string(k) + ": " + sim.error();
      break;
    }
    ++run.steps;
    if (sim.problem().nl > 0 && !sim.solution().converged()) {
      if (run.unconverged == 0) run.first_unconverged = k;
      ++run.unconverged;
    }
  }
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

}  // namespace moreau::bench
