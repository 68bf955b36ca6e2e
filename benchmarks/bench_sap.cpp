// SAP (Castro et al. 2023) against admm-ncp-sa: one simulation step of box-stack (5 boxes,
// 20 contacts) after 1 s of settling, and of the closed-loop fourbar-fixed (joints only).
#include <benchmark/benchmark.h>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
void step_scene(benchmark::State& bs, const char* name, const char* solver) {
  Scene sc = std::move(*make_builtin_scene(name));
  SimSettings st = sc.settings;
  st.solver = solver;
  State s = sc.initial;
  Simulator sim(sc.model, st);
  while (s.t < 1.0)
    if (!sim.step(s)) return bs.SkipWithError(sim.error().c_str());
  int64_t iters = 0, steps = 0;
  for (auto _ : bs) {
    if (!sim.step(s)) return bs.SkipWithError(sim.error().c_str());
    iters += sim.solution().iterations;
    ++steps;
  }
  bs.counters["rows"] = sim.problem().nl;
  bs.counters["iterations"] = static_cast<double>(iters) / static_cast<double>(steps);
}
}  // namespace

BENCHMARK_CAPTURE(step_scene, box_stack_sap, "box-stack", "sap");
BENCHMARK_CAPTURE(step_scene, box_stack_admm_ncp_sa, "box-stack", "admm-ncp-sa");
BENCHMARK_CAPTURE(step_scene, fourbar_fixed_sap, "fourbar-fixed", "sap");
BENCHMARK_CAPTURE(step_scene, fourbar_fixed_admm_ncp_sa, "fourbar-fixed", "admm-ncp-sa");
BENCHMARK_MAIN();
