// Time per step on the clutter scene (Castro et al. 2023, Sec. VI-C, Figs. 11-12): n = 10, 40,
// 160 spheres and boxes, with and without walls, SAP (its theta-method, near-rigid contacts)
// against two dual solvers of the hard NCP (admm-ncp-sa, pgs-ncp; semi-implicit Euler, the same
// free motion here: clutter has no joints). Every run first settles 1 s with SAP, then each
// solver continues from that state; the timed steps are the ones after it (warm started).
// The dual solvers solve a different (hard) problem at their own tolerance (1e-6 m/s L-inf,
// 1000 iterations), so the comparison is of cost per step, not of identical answers.
#include <benchmark/benchmark.h>

#include <string>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;

namespace {
void clutter_step(benchmark::State& bs, const char* solver) {
  const int n = static_cast<int>(bs.range(0));
  const bool walls = bs.range(1) != 0;
  Result<Scene> sc =
      make_builtin_scene("clutter", {{"n", std::to_string(n)}, {"walls", walls ? "1" : "0"}});
  if (!sc) return bs.SkipWithError(sc.error().message().c_str());
  State s = sc->initial;
  {
    Simulator settle(sc->model, sc->settings);
    while (s.t < 1.0)
      if (!settle.step(s)) return bs.SkipWithError(settle.error().c_str());
  }
  SimSettings st = sc->settings;
  st.solver = solver;
  if (st.solver != "sap") {
    st.integrator = Integrator::SemiImplicitEuler;
    st.solver_settings.tol = 1e-6;
    st.solver_settings.max_iters = 1000;
  }
  Simulator sim(sc->model, st);
  if (!sim.step(s)) return bs.SkipWithError(sim.error().c_str());  // first step: warm start
  int64_t iters = 0, steps = 0, rows = 0;
  for (auto _ : bs) {
    if (!sim.step(s)) return bs.SkipWithError(sim.error().c_str());
    iters += sim.solution().iterations;
    rows += sim.problem().nl;
    ++steps;
  }
  bs.counters["rows"] = static_cast<double>(rows) / static_cast<double>(steps);
  bs.counters["iterations"] = static_cast<double>(iters) / static_cast<double>(steps);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int walls : {1, 0})
    for (int n : {10, 40, 160}) b->Args({n, walls});
  b->ArgNames({"n", "walls"})->Unit(benchmark::kMillisecond);
}
}  // namespace

BENCHMARK_CAPTURE(clutter_step, sap, "sap")->Apply(sizes);
BENCHMARK_CAPTURE(clutter_step, admm_ncp_sa, "admm-ncp-sa")->Apply(sizes);
BENCHMARK_CAPTURE(clutter_step, pgs_ncp, "pgs-ncp")->Apply(sizes);
BENCHMARK_MAIN();
