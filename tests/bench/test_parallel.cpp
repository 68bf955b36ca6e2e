// bench/parallel.hpp: every task runs once, on a worker index in range, whatever the thread
// count; the progress callback sees 1, 2, ..., count in order.
#include <gtest/gtest.h>

#include <vector>

#include "moreau/bench/parallel.hpp"

namespace moreau::bench {
namespace {

TEST(BenchParallel, EveryTaskRunsOnceOnAWorkerInRange) {
  for (int jobs : {0, 1, 3, 8})
    for (int count : {0, 1, 5, 40}) {
      SCOPED_TRACE("jobs " + std::to_string(jobs) + " count " + std::to_string(count));
      const int workers = worker_count(count, jobs);
      EXPECT_GE(workers, 1);
      EXPECT_LE(workers, std::max(1, std::min(jobs, count)));
      std::vector<int> runs(count, 0), worker(count, -1);
      std::vector<int> seen;
      parallel_for(
          count, jobs,
          [&](int i, int w) {
            ++runs[i];  // each slot written by its own task only
            worker[i] = w;
          },
          [&](int finished, int total) {
            EXPECT_EQ(total, count);
            seen.push_back(finished);
          });
      for (int i = 0; i < count; ++i) {
        EXPECT_EQ(runs[i], 1) << i;
        EXPECT_GE(worker[i], 0);
        EXPECT_LT(worker[i], workers);
      }
      ASSERT_EQ(int(seen.size()), count);
      for (int k = 0; k < count; ++k) EXPECT_EQ(seen[k], k + 1);
    }
}

// Results written per task do not depend on the thread count.
TEST(BenchParallel, ResultsDoNotDependOnTheThreadCount) {
  auto run = [](int jobs) {
    std::vector<double> out(100);
    parallel_for(100, jobs, [&](int i, int) {
      double x = i;
      for (int k = 0; k < 1000; ++k) x = 0.5 * x + 1.0 / (1.0 + x);
      out[i] = x;
    });
    return out;
  };
  const std::vector<double> one = run(1);
  EXPECT_EQ(run(2), one);
  EXPECT_EQ(run(7), one);
}

}  // namespace
}  // namespace moreau::bench
