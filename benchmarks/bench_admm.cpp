// First-order solvers (ADMM family, APGD, SOR-prox) on the built-in scenes' first-step Problems:
// time to a natural-map tolerance of 1e-6 (cold start), and time per iteration (fixed count).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {
struct Built {
  Scene scene;
  std::unique_ptr<ProblemBuilder> builder;
  const Problem* p = nullptr;
};

Built build(const std::string& name, const SceneParams& params = {}) {
  Built b;
  b.scene = std::move(*make_builtin_scene(name, params));
  CollisionDetector cd(b.scene.model);
  const auto contacts = cd.detect(b.scene.initial, b.scene.settings.collision);
  b.builder = std::make_unique<ProblemBuilder>(b.scene.model);
  b.p =
      &b.builder->build(b.scene.initial, contacts, b.scene.settings.dt, b.scene.settings.dynamics);
  return b;
}

// Cold-start solve to tol (L-inf natural map / the solver's own test).
void to_tolerance(benchmark::State& bs, const std::string& scene, const std::string& solver,
                  const SceneParams& params) {
  const Built b = build(scene, params);
  SolverSettings s;
  s.tol = 1e-6;
  s.max_iters = 100000;
  SolverWorkspace ws;
  Solution sol;
  for (auto _ : bs) solve(solver, *b.p, s, {}, ws, sol);
  bs.counters["rows"] = b.p->nl;
  bs.counters["iterations"] = sol.iterations;
  bs.counters["converged"] = sol.converged();
}

// Exactly 100 iterations (tol = 0): seconds per iteration.
void per_iteration(benchmark::State& bs, const std::string& scene, const std::string& solver,
                   const SceneParams& params) {
  const Built b = build(scene, params);
  SolverSettings s;
  s.tol = 0.0;
  s.max_iters = 100;
  SolverWorkspace ws;
  Solution sol;
  for (auto _ : bs) solve(solver, *b.p, s, {}, ws, sol);
  bs.counters["rows"] = b.p->nl;
  bs.counters["s_per_iter"] =
      benchmark::Counter(double(sol.iterations) * double(bs.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void register_all() {
  const char* solvers[] = {"pgs",         "admm-ccp", "admm-ncp-fp", "admm-ncp-la",
                           "admm-ncp-sa", "apgd",     "prox"};
  struct S {
    const char* label;
    const char* scene;
    SceneParams params;
  };
  const S scenes[] = {{"fourbar-fixed", "fourbar-fixed", {}},
                      {"boxes-fixed", "boxes-fixed", {}},
                      {"box-stack", "box-stack", {}},
                      {"chain100", "chain", {{"n", "100"}}}};
  for (const S& sc : scenes)
    for (const char* sv : solvers) {
      const std::string scene = sc.scene, solver = sv;
      const SceneParams params = sc.params;
      benchmark::RegisterBenchmark(
          ("to_1e-6/" + std::string(sc.label) + "/" + solver).c_str(),
          [=](benchmark::State& bs) { to_tolerance(bs, scene, solver, params); })
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(
          ("per_iter/" + std::string(sc.label) + "/" + solver).c_str(),
          [=](benchmark::State& bs) { per_iteration(bs, scene, solver, params); })
          ->Unit(benchmark::kMicrosecond);
    }
}
}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
