// Collision detection and full steps for sphere-pile at n = 100 ... 3000. The scene is
// first run for 1000 steps (1 s) so that the spheres have fallen into a pile. Report the scaling
// exponent of time versus n from the medians (docs/collision.md).
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

namespace {

struct Pile {
  moreau::Scene scene;
  moreau::State state;
};

// One settled pile per n, built once (benchmark repetitions reuse it).
Pile& pile(int n) {
  static std::map<int, std::unique_ptr<Pile>> cache;
  auto& p = cache[n];
  if (!p) {
    p = std::make_unique<Pile>();
    p->scene = std::move(*moreau::make_builtin_scene("sphere-pile", {{"n", std::to_string(n)}}));
    p->state = p->scene.initial;
    moreau::Simulator sim(p->scene.model, p->scene.settings);
    for (int k = 0; k < 1000; ++k) sim.step(p->state);
  }
  return *p;
}

void BM_SpherePileCollision(benchmark::State& st) {
  Pile& p = pile(static_cast<int>(st.range(0)));
  moreau::CollisionDetector det(p.scene.model);
  size_t contacts = 0;
  for (auto _ : st) {
    const auto& c = det.detect(p.state, p.scene.settings.collision);
    contacts = c.size();
    benchmark::DoNotOptimize(contacts);
  }
  st.counters["contacts"] = static_cast<double>(contacts);
  st.SetComplexityN(st.range(0));
}

void BM_SpherePileStep(benchmark::State& st) {
  Pile& p = pile(static_cast<int>(st.range(0)));
  moreau::Simulator sim(p.scene.model, p.scene.settings);
  moreau::State s = p.state;
  for (auto _ : st) {
    if (!sim.step(s)) st.SkipWithError(sim.error().c_str());
  }
  st.counters["contacts"] = static_cast<double>(sim.contacts().size());
  st.SetComplexityN(st.range(0));
}

}  // namespace

BENCHMARK(BM_SpherePileCollision)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMicrosecond)
    ->Complexity();
BENCHMARK(BM_SpherePileStep)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();
BENCHMARK_MAIN();
