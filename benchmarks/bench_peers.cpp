// moreau beside its peers (docs/performance.md): one step of MuJoCo's sample humanoids in moreau
// (MJCF importer, the default solver) and in MuJoCo (when built with it), and the FCLib problems
// solved by moreau's best solvers and Siconos's NSGS and PROX (when built with it), each solve
// from the same cold start. Models: /usr/share/mujoco/model (Debian libmujoco-samples); FCLib
// files: $MOREAU_SHARED_DIR/fclib or <source dir>/../shared/fclib.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "moreau/io/fclib.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

using namespace moreau;

namespace {

const std::string kModels = "/usr/share/mujoco/model/";

// Steps `model` in moreau with the imported scene's solver (the default), after 10 steps; with
// `fast`, the fast path (SimSettings::fast_path, docs/performance.md), as `moreau compare` does.
void BM_StepMoreau(benchmark::State& bs, const char* model, bool fast) {
  const std::string path = kModels + model;
  if (!std::filesystem::exists(path)) return bs.SkipWithError("model not installed");
  Result<ImportedModel> im = import_mjcf_file(path);
  if (!im) return bs.SkipWithError(im.error().message().c_str());
  Scene& sc = im->scene;
  sc.settings.dt = 0.005;
  sc.settings.fast_path = fast;
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  for (int k = 0; k < 10; ++k) sim.step(s);
  for (auto _ : bs)
    if (!sim.step(s)) return bs.SkipWithError(sim.error().c_str());
  bs.counters["bodies"] = sc.model.num_bodies();
  bs.counters["rows"] = sim.problem().nl;
  bs.counters["iterations"] = sim.solution().iterations;
}
BENCHMARK_CAPTURE(BM_StepMoreau, humanoid, "humanoid/humanoid.xml", false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_StepMoreau, humanoid_fast, "humanoid/humanoid.xml", true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_StepMoreau, humanoid100, "humanoid100/humanoid100.xml", false)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_StepMoreau, humanoid100_fast, "humanoid100/humanoid100.xml", true)
    ->Unit(benchmark::kMicrosecond);

#ifdef MOREAU_HAVE_MUJOCO
// The same in MuJoCo, with the model's own solver options and dt = 0.005 s.
void BM_StepMuJoCo(benchmark::State& bs, const char* model) {
  const std::string path = kModels + model;
  char err[1024] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, err, sizeof(err));
  if (!m) return bs.SkipWithError(err);
  m->opt.timestep = 0.005;
  mjData* d = mj_makeData(m);
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);
  for (int k = 0; k < 10; ++k) mj_step(m, d);
  for (auto _ : bs) mj_step(m, d);
  bs.counters["bodies"] = m->nbody - 1;
  bs.counters["contacts"] = d->ncon;
  mj_deleteData(d);
  mj_deleteModel(m);
}
BENCHMARK_CAPTURE(BM_StepMuJoCo, humanoid, "humanoid/humanoid.xml")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_StepMuJoCo, humanoid100, "humanoid100/humanoid100.xml")
    ->Unit(benchmark::kMicrosecond);
#endif

const Problem* fclib(const std::string& file) {
  static std::map<std::string, std::unique_ptr<FclibProblem>> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    const char* env = std::getenv("MOREAU_SHARED_DIR");
    const std::string here = __FILE__;
    const std::string dir = env ? env : here.substr(0, here.rfind('/')) + "/../../shared";
    auto r = load_fclib(dir + "/fclib/" + file);
    it = cache.emplace(file, r ? std::make_unique<FclibProblem>(std::move(*r)) : nullptr).first;
  }
  return it->second ? &it->second->problem : nullptr;
}

// One solve from a cold start to the natural map <= 1e-8 (the shared problems have |q| < 1).
void BM_SolveFclib(benchmark::State& bs, const char* file, const char* solver) {
  const Problem* p = fclib(file);
  if (!p) return bs.SkipWithError("FCLib file not found (MOREAU_SHARED_DIR) or no HDF5");
  if (!find_solver(solver)) return bs.SkipWithError("solver not in this build");
  SolverSettings s;
  s.tol = 1e-8;
  s.max_iters = 5000;
  SolverWorkspace ws;
  Solution sol;
  for (auto _ : bs) solve(solver, *p, s, {}, ws, sol);
  bs.counters["iterations"] = sol.iterations;
  bs.counters["converged"] = sol.converged();
  bs.counters["natmap"] = ncp_residuals(*p, sol.lambda, sol.v_plus, true).natmap;
}

#define FCLIB_SOLVES(tag, file)                                              \
  BENCHMARK_CAPTURE(BM_SolveFclib, tag##_nbgs_exact, file, "nbgs-exact")     \
      ->Unit(benchmark::kMicrosecond);                                       \
  BENCHMARK_CAPTURE(BM_SolveFclib, tag##_admm_ncp_sa, file, "admm-ncp-sa")   \
      ->Unit(benchmark::kMicrosecond);                                       \
  BENCHMARK_CAPTURE(BM_SolveFclib, tag##_siconos_nsgs, file, "siconos-nsgs") \
      ->Unit(benchmark::kMicrosecond);                                       \
  BENCHMARK_CAPTURE(BM_SolveFclib, tag##_siconos_prox, file, "siconos-prox") \
      ->Unit(benchmark::kMicrosecond);

FCLIB_SOLVES(cube_h8, "CubeH8.hdf5")
FCLIB_SOLVES(box_stacks, "Box_Stacks-i0122-82-5.hdf5")
FCLIB_SOLVES(lmgc_periobox, "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5")
FCLIB_SOLVES(spheres, "spheres-in-a-box-98-i10000-256-10.hdf5")

}  // namespace

BENCHMARK_MAIN();
