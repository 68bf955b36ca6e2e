// SAP's Newton linear algebra (src/moreau/solvers/sap_linear.hpp): dense LLT against CHOLMOD's
// supernodal sparse Cholesky of H = M + J^T G J (Castro et al. 2023, eq. 39), one simulation
// step of sphere-pile with n spheres (6 n velocity rows) after 0.3 s of settling (spheres on
// the ground, on each other and on the walls). Counters: Newton iterations per step and the
// time per Newton iteration (docs/solvers.md, section `sap`, has the measured table).
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
// The settled state of sphere-pile with n spheres (sparse path, computed once per n).
const State& settled(const Scene& sc, int n) {
  static std::map<int, State> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  SimSettings st = sc.settings;
  st.solver = "sap";
  st.solver_settings.sap.linear_solver = 1;
  Simulator sim(sc.model, st);
  State s = sc.initial;
  while (s.t < 0.3)
    if (!sim.step(s)) break;
  return cache.emplace(n, s).first->second;
}

void sphere_pile(benchmark::State& bs, int linear_solver) {
  const int n = static_cast<int>(bs.range(0));
  Scene sc = std::move(*make_builtin_scene("sphere-pile", {{"n", std::to_string(n)}}));
  const State start = settled(sc, n);
  SimSettings st = sc.settings;
  st.solver = "sap";
  st.solver_settings.sap.linear_solver = linear_solver;
  Simulator sim(sc.model, st);
  State s = start;
  int64_t iters = 0, steps = 0;
  for (auto _ : bs) {
    if (!sim.step(s)) return bs.SkipWithError(sim.error().c_str());
    iters += sim.solution().iterations;
    ++steps;
  }
  bs.counters["rows"] = sim.problem().nl;
  bs.counters["iterations"] = static_cast<double>(iters) / static_cast<double>(steps);
  // Seconds per Newton iteration (the whole step divided by its iterations).
  bs.counters["per_iteration"] = benchmark::Counter(
      static_cast<double>(iters), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
}  // namespace

// Dense at 640 spheres (3840 rows) is left out: about 4 s per Newton iteration (n^3 from 320).
BENCHMARK_CAPTURE(sphere_pile, dense, 0)
    ->Arg(5)
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Arg(160)
    ->Arg(320)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sphere_pile, sparse, 1)
    ->Arg(5)
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Arg(160)
    ->Arg(320)
    ->Arg(640)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
