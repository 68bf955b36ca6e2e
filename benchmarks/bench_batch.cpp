// Many worlds at once (docs/performance.md, "Batches of worlds"): 64 copies of MuJoCo's humanoid
// (the MJCF importer, default settings, dt = 5 ms) stepped for one second each by moreau's Batch
// on 1 and 2 threads, beside MuJoCo stepping 64 mjData of the same model on 1 and 2 threads (one
// mjData per world, threads claiming whole worlds, as Batch does). Every iteration starts the
// worlds from the model's initial state, motors idle (the humanoid falls and lies down);
// items_per_second is the throughput in world-steps per second.
#include <benchmark/benchmark.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/sim/batch.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

using namespace moreau;

namespace {

const std::string kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";
constexpr int kWorlds = 64, kSteps = 200;  // 1 s at dt = 5 ms

void BM_BatchMoreau(benchmark::State& bs) {
  if (!std::filesystem::exists(kHumanoid)) return bs.SkipWithError("model not installed");
  Result<ImportedModel> im = import_mjcf_file(kHumanoid);
  if (!im) return bs.SkipWithError(im.error().message().c_str());
  Scene& sc = im->scene;
  sc.settings.dt = 0.005;
  Batch batch(sc.model, sc.settings, sc.initial, kWorlds, static_cast<int>(bs.range(0)));
  long long unconverged = 0;
  for (auto _ : bs) {
    bs.PauseTiming();
    for (int w = 0; w < kWorlds; ++w) batch.reset(w);
    bs.ResumeTiming();
    if (batch.step(kSteps) != 0) return bs.SkipWithError(batch.world_error(0).c_str());
    for (int w = 0; w < kWorlds; ++w) unconverged += batch.unconverged()[w];
  }
  bs.SetItemsProcessed(bs.iterations() * kWorlds * kSteps);
  bs.counters["unconverged"] = static_cast<double>(unconverged);
}
BENCHMARK(BM_BatchMoreau)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef MOREAU_HAVE_MUJOCO
void BM_BatchMuJoCo(benchmark::State& bs) {
  char err[1024] = "";
  mjModel* m = mj_loadXML(kHumanoid.c_str(), nullptr, err, sizeof(err));
  if (!m) return bs.SkipWithError(err);
  m->opt.timestep = 0.005;
  std::vector<mjData*> data(kWorlds);
  for (mjData*& d : data) d = mj_makeData(m);
  const int threads = static_cast<int>(bs.range(0));
  for (auto _ : bs) {
    bs.PauseTiming();
    for (mjData* d : data)  // moreau's importer starts from the first keyframe, if any
      m->nkey > 0 ? mj_resetDataKeyframe(m, d, 0) : mj_resetData(m, d);
    bs.ResumeTiming();
    std::atomic<int> next{0};
    auto work = [&] {
      for (int w = next++; w < kWorlds; w = next++)
        for (int k = 0; k < kSteps; ++k) mj_step(m, data[w]);
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
  }
  bs.SetItemsProcessed(bs.iterations() * kWorlds * kSteps);
  for (mjData* d : data) mj_deleteData(d);
  mj_deleteModel(m);
}
BENCHMARK(BM_BatchMuJoCo)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

BENCHMARK_MAIN();
