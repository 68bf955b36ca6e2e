// Samples from simulation and from files; run_solves order and determinism.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>

#include "moreau/bench/bench.hpp"
#include "moreau/io/fclib.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/scenes/builtin.hpp"

using namespace moreau;
using namespace moreau::bench;
namespace fs = std::filesystem;

namespace {

CollectSettings short_run(double duration, int max_samples = 6) {
  CollectSettings cs;
  cs.duration = duration;
  cs.max_samples = max_samples;
  return cs;
}

bool same_bits(const VecX& a, const VecX& b) {
  return a.size() == b.size() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

bool same_problem(const Problem& a, const Problem& b) {
  MatX da, db;
  a.D.to_dense(da);
  b.D.to_dense(db);
  return a.nl == b.nl && a.num_blocks() == b.num_blocks() && a.dt == b.dt &&
         same_bits(a.v_f, b.v_f) && same_bits(a.f, b.f) && same_bits(a.u_free, b.u_free) &&
         da.size() == db.size() &&
         std::memcmp(da.data(), db.data(), sizeof(double) * da.size()) == 0;
}

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() /
                     (std::string("moreau_bench_") + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(BenchSamples, CollectIsDeterministicOrderedAndWithinBudget) {
  const CollectSettings cs = short_run(0.3);
  auto a = collect_samples("box-on-plane", cs);
  auto b = collect_samples("box-on-plane", cs);
  ASSERT_TRUE(a) << a.error().message();
  ASSERT_TRUE(b) << b.error().message();
  ASSERT_FALSE(a->empty());
  ASSERT_EQ(a->size(), b->size());
  EXPECT_LE(static_cast<int>(a->size()), cs.max_samples);
  EXPECT_EQ(a->front().reason, "first");
  EXPECT_TRUE(a->front().warm_lambda.size() == 0) << "nothing to warm start from at first contact";
  for (size_t i = 0; i < a->size(); ++i) {
    const Sample& s = (*a)[i];
    EXPECT_TRUE(same_problem(s.problem, (*b)[i].problem)) << i;
    EXPECT_TRUE(same_bits(s.warm_lambda, (*b)[i].warm_lambda)) << i;
    EXPECT_EQ(s.system, "box-on-plane");
    EXPECT_GT(s.problem.nl, 0);
    EXPECT_TRUE(s.warm_lambda.size() == 0 || s.warm_lambda.size() == s.problem.nl);
    EXPECT_EQ(s.info.category, classify(s.problem).category);
    EXPECT_NEAR(s.time, s.step * s.problem.dt, 1e-12);
    if (i > 0) {
      EXPECT_LT((*a)[i - 1].step, s.step);
      EXPECT_EQ(s.warm_lambda.size(), s.problem.nl) << "resting box: every contact persists";
    }
  }
}

TEST(BenchSamples, ImpactsAndPeriodicStepsAreRecorded) {
  // nunchuk has joints from step 0 (first); box-on-plane lands after ~45 ms (impact = first).
  CollectSettings cs = short_run(0.2, 8);
  cs.every = 50;
  auto s = collect_samples("nunchuk", cs);
  ASSERT_TRUE(s) << s.error().message();
  ASSERT_EQ(s->size(), 4u);  // steps 0 (first), 50, 100, 150
  EXPECT_EQ((*s)[0].step, 0);
  EXPECT_EQ((*s)[1].reason, "periodic");
  EXPECT_EQ((*s)[3].step, 150);
  cs.dt = 2e-3;
  auto h = collect_samples("nunchuk", cs);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->size(), 2u);  // 100 steps of 2 ms: 0, 50
  EXPECT_DOUBLE_EQ(h->back().problem.dt, 2e-3);
  // More periodic candidates than room: 7 (steps 25..175) thinned evenly to 3: i * 7 / 3.
  cs.dt = 0.0;
  cs.every = 25;
  cs.max_samples = 4;
  auto t = collect_samples("nunchuk", cs);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->size(), 4u);
  EXPECT_EQ((*t)[1].step, 25);
  EXPECT_EQ((*t)[2].step, 75);
  EXPECT_EQ((*t)[3].step, 125);
  // every = 1: candidates are halved as they come (bounded memory), still spread over the run.
  cs.every = 1;
  cs.max_samples = 3;
  auto u = collect_samples("nunchuk", cs);
  ASSERT_TRUE(u);
  ASSERT_EQ(u->size(), 3u);
  EXPECT_GE(u->back().step, 100);
}

TEST(BenchSamples, ErrorsNameTheSceneAndStep) {
  auto bad = collect_samples("no-such-scene", short_run(0.1));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("no-such-scene"), std::string::npos);
  // `direct` cannot solve contacts: the simulation stops at the first contact step.
  CollectSettings cs = short_run(0.3);
  cs.sim_solver = "direct";
  auto fail = collect_samples("box-on-plane", cs);
  ASSERT_FALSE(fail);
  const std::string msg = fail.error().message();
  EXPECT_NE(msg.find("box-on-plane"), std::string::npos) << msg;
  EXPECT_NE(msg.find("step "), std::string::npos) << msg;
}

TEST(BenchSamples, SaveLoadRoundTripIsBitExact) {
  auto s = collect_samples("fourbar-free", short_run(0.05, 3));
  ASSERT_TRUE(s) << s.error().message();
  ASSERT_EQ(s->size(), 3u);
  const fs::path dir = temp_dir("roundtrip");
  ASSERT_FALSE(save_samples(*s, dir.string()).has_value());
  auto back = load_samples(dir.string());
  ASSERT_TRUE(back) << back.error().message();
  ASSERT_EQ(back->size(), s->size());
  std::set<int> nl;
  for (size_t i = 0; i < s->size(); ++i) {
    // Files load in name order; match by content.
    bool found = false;
    for (const Sample& b : *back) found = found || same_problem((*s)[i].problem, b.problem);
    EXPECT_TRUE(found) << i;
    EXPECT_EQ((*back)[i].system, "fourbar-free");
    EXPECT_EQ((*back)[i].step, -1);
    EXPECT_EQ((*back)[i].reason, "file");
  }
  auto one = load_samples((dir / "fourbar-free-0.mprob").string());
  ASSERT_TRUE(one) << one.error().message();
  EXPECT_TRUE(same_problem(one->front().problem, s->front().problem));
  EXPECT_EQ(one->front().info.category, Category::RedundantJoints);
  auto missing = load_samples((dir / "nope.mprob").string());
  EXPECT_FALSE(missing);
  fs::remove_all(dir);
}

TEST(BenchSamples, FclibFileGivesOneSamplePerProblem) {
  const char* shared = std::getenv("MOREAU_SHARED_DIR");
  if (!fclib_supported() || !shared) GTEST_SKIP() << "no HDF5 or MOREAU_SHARED_DIR";
  const fs::path file = fs::path(shared) / "fclib" / "Box_Stacks-i0122-82-5.hdf5";
  if (!fs::exists(file)) GTEST_SKIP() << file;
  auto s = load_samples(file.string());
  ASSERT_TRUE(s) << s.error().message();
  ASSERT_EQ(s->size(), 1u);
  const Sample& x = s->front();
  EXPECT_EQ(x.system, "fclib:Box_Stacks-i0122-82-5");
  EXPECT_EQ(x.step, -1);
  EXPECT_EQ(x.info.bodies, 0);
  EXPECT_EQ(x.info.contacts, x.problem.nl / 3);
  EXPECT_GE(x.info.contacts, 2);
}

TEST(BenchRun, RowsAreIndependentOfJobsAndOrdered) {
  auto s = collect_samples("box-on-plane", short_run(0.2, 3));
  ASSERT_TRUE(s) << s.error().message();
  auto j = collect_samples("fourbar-free", short_run(0.02, 2));
  ASSERT_TRUE(j);
  std::vector<Sample> samples = *s;
  for (Sample& x : *j) samples.push_back(std::move(x));
  RunSettings rs;
  rs.solvers = {"pgs", "direct", "admm-ncp-sa", "no-such-solver"};
  rs.solver.tol = 1e-8;
  rs.solver.max_iters = 500;
  rs.traces = true;
  std::mutex m;
  int calls = 0, last = 0, total = 0;
  rs.jobs = 1;
  const std::vector<RunResult> a = run_solves(samples, rs);
  rs.jobs = 3;
  const std::vector<RunResult> b = run_solves(samples, rs, [&](int done, int n) {
    std::lock_guard<std::mutex> lock(m);
    ++calls;
    last = std::max(last, done);
    total = n;
  });
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(calls, static_cast<int>(b.size()));
  EXPECT_EQ(last, total);
  EXPECT_EQ(total, static_cast<int>(b.size()));
  size_t expected_rows = 0;
  for (const Sample& x : samples)
    expected_rows += rs.solvers.size() * (x.warm_lambda.size() ? 2 : 1);
  EXPECT_EQ(a.size(), expected_rows);
  for (size_t i = 0; i < a.size(); ++i) {
    const RunResult &x = a[i], &y = b[i];
    EXPECT_EQ(x.sample, y.sample);
    EXPECT_EQ(x.solver, y.solver);
    EXPECT_EQ(x.warm, y.warm);
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.iterations, y.iterations);
    EXPECT_EQ(x.message, y.message);
    EXPECT_EQ(x.success, y.success);
    EXPECT_TRUE(std::memcmp(&x.metrics, &y.metrics, sizeof(Metrics)) == 0) << i;
    EXPECT_EQ(x.trace, y.trace);
    if (i > 0) {  // (sample, solver, cold before warm)
      const RunResult& p = a[i - 1];
      EXPECT_TRUE(p.sample < x.sample ||
                  (p.sample == x.sample && (p.solver != x.solver || !p.warm)));
    }
    const bool contact = samples[x.sample].problem.count(RowKind::Contact) > 0;
    if (x.solver == "no-such-solver") {
      EXPECT_EQ(x.status, SolveStatus::Failed);
      EXPECT_NE(x.message.find("no-such-solver"), std::string::npos);
    } else if (x.solver == "direct" && contact) {
      EXPECT_EQ(x.status, SolveStatus::Failed);
      EXPECT_EQ(x.message, "does not handle contacts");
    } else {
      EXPECT_GT(x.iterations, 0) << x.solver;
      EXPECT_EQ(x.success,
                x.status == SolveStatus::Converged && x.metrics.r_natmap <= rs.solver.tol);
      if (x.solver != "direct") {
        EXPECT_FALSE(x.trace.empty()) << x.solver;
      }
    }
  }
}

TEST(BenchRun, ColdOnlyAndUnconstrainedSamplesAreSkipped) {
  auto s = collect_samples("box-on-plane", short_run(0.2, 2));
  ASSERT_TRUE(s);
  std::vector<Sample> samples = *s;
  samples.push_back(Sample{});  // n_lambda = 0: not solved
  RunSettings rs;
  rs.solvers = {"pgs"};
  rs.warm = false;
  const std::vector<RunResult> r = run_solves(samples, rs);
  ASSERT_EQ(r.size(), s->size());
  for (const RunResult& x : r) EXPECT_FALSE(x.warm);
}

namespace {
const std::vector<std::string> kSuite = {
    "box-on-plane", "boxes-fixed", "nunchuk", "fourbar-fixed", "fourbar-free",
    "arm7d",        "quadruped",   "bdx",     "lima",          "misha",
    "walker",       "gazelle",     "ironman"};
}  // namespace

TEST(BenchSuite, EveryCategoryIsProducedByASuiteScene) {
  // Suite in Table II order, 0.3 s each, until every category but Unconstrained is met: the
  // primitives and arm7d's first contacts (single at ~0.14 s, then two) suffice.
  CollectSettings cs = short_run(0.3, 12);
  std::set<Category> seen;
  for (const std::string& name : kSuite) {
    auto s = collect_samples(name, cs);
    ASSERT_TRUE(s) << s.error().message();
    for (const Sample& x : *s) seen.insert(x.info.category);
    if (seen.size() == kNumCategories - 1) break;
  }
  for (int c = 0; c < kNumCategories; ++c) {
    const Category cat = static_cast<Category>(c);
    if (cat != Category::Unconstrained) {
      EXPECT_TRUE(seen.count(cat)) << category_name(cat);
    }
  }
}

// Slow (about 4 minutes): every suite scene runs its own duration (4 s for the animatronics) with
// its own solver and settings, and records its 12 samples.
TEST(BenchSuiteSlow, EverySuiteSceneCollectsWithDefaults) {
  std::set<Category> seen;
  for (const std::string& name : kSuite) {
    auto s = collect_samples(name, CollectSettings{});
    ASSERT_TRUE(s) << s.error().message();
    EXPECT_EQ(s->size(), 12u) << name;
    for (const Sample& x : *s) seen.insert(x.info.category);
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kNumCategories - 1));
}

// The default path's count: a step stopped at the iteration cap is unconverged. fourbar-fixed
// with the scene's settings converges every step; the same scene written with 2 iterations per
// step and the full solve (a scene file's settings.solver_settings.max_iters and
// settings.fast_path) leaves its steps above tol.
TEST(BenchDefaultPath, CountsStepsAtTheCapAsUnconverged) {
  CollectSettings cs = short_run(0.05);
  const DefaultPathRun ok = run_default_path("fourbar-fixed", cs);
  EXPECT_EQ(ok.system, "fourbar-fixed");
  EXPECT_TRUE(ok.error.empty()) << ok.error;
  EXPECT_TRUE(ok.fast_path);
  EXPECT_EQ(ok.steps, 50);
  EXPECT_EQ(ok.unconverged, 0);
  EXPECT_EQ(ok.first_unconverged, -1);

  Result<Scene> sc = make_builtin_scene("fourbar-fixed");
  ASSERT_TRUE(sc);
  sc->settings.solver_settings.max_iters = 2;
  sc->settings.fast_path = false;
  const fs::path file = temp_dir("default_path") / "capped.json";
  std::ofstream(file) << scene_to_json(*sc);
  const DefaultPathRun capped = run_default_path(file.string(), cs);
  EXPECT_TRUE(capped.error.empty()) << capped.error;
  EXPECT_FALSE(capped.fast_path);
  EXPECT_EQ(capped.steps, 50);
  EXPECT_GT(capped.unconverged, 0);
  EXPECT_GE(capped.first_unconverged, 0);
  const DefaultPathRun missing = run_default_path("no-such-system", cs);
  EXPECT_FALSE(missing.error.empty());
  EXPECT_EQ(missing.steps, 0);
}
