// One simulation step and the Delassus assembly (issue: foundation performance).
#include <benchmark/benchmark.h>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
Scene scene(const std::string& name, const SceneParams& p = {}) {
  return std::move(*make_builtin_scene(name, p));
}

void step_scene(benchmark::State& bs, const std::string& name, const SceneParams& params,
                const std::string& solver) {
  Scene sc = scene(name, params);
  SimSettings st = sc.settings;
  st.solver = solver;
  State s = sc.initial;
  Simulator sim(sc.model, st);
  for (int k = 0; k < 10; ++k) sim.step(s);
  for (auto _ : bs) {
    if (!sim.step(s)) bs.SkipWithError(sim.error().c_str());
  }
  bs.counters["rows"] = sim.problem().nl;
  bs.counters["iterations"] = sim.solution().iterations;
}

void BM_StepFourbarFixed(benchmark::State& bs) {
  step_scene(bs, "fourbar-fixed", {}, "pgs");
}
void BM_StepFourbarFixedDirect(benchmark::State& bs) {
  step_scene(bs, "fourbar-fixed", {}, "direct");
}
void BM_StepFourbarFixedAdmmSa(benchmark::State& bs) {
  step_scene(bs, "fourbar-fixed", {}, "admm-ncp-sa");
}
void BM_StepChain30AdmmSa(benchmark::State& bs) {
  step_scene(bs, "chain", {{"n", "30"}}, "admm-ncp-sa");
}
void BM_StepChain30(benchmark::State& bs) {
  step_scene(bs, "chain", {{"n", "30"}}, "pgs");
}
void BM_StepChain30Direct(benchmark::State& bs) {
  step_scene(bs, "chain", {{"n", "30"}}, "direct");
}

// Problem building (kinematics, forces, J, block-sparse Delassus) alone.
void BM_BuildProblem(benchmark::State& bs) {
  Scene sc = scene("chain", {{"n", std::to_string(bs.range(0))}});
  ProblemBuilder pb(sc.model);
  pb.build(sc.initial, {}, 1e-3, sc.settings.dynamics);
  for (auto _ : bs) benchmark::DoNotOptimize(&pb.build(sc.initial, {}, 1e-3, sc.settings.dynamics));
  bs.counters["rows"] = pb.problem().nl;
  bs.counters["nnz"] = pb.problem().D.nnz();
  bs.SetComplexityN(bs.range(0));
}
}  // namespace

BENCHMARK(BM_StepFourbarFixed);
BENCHMARK(BM_StepFourbarFixedDirect);
BENCHMARK(BM_StepFourbarFixedAdmmSa);
BENCHMARK(BM_StepChain30);
BENCHMARK(BM_StepChain30AdmmSa);
BENCHMARK(BM_StepChain30Direct);
BENCHMARK(BM_BuildProblem)->RangeMultiplier(4)->Range(4, 1024)->Complexity();
BENCHMARK_MAIN();
