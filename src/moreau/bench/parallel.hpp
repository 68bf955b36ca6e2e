#pragma once
// The benchmark's one thread pool: independent tasks 0..count-1 handed out in index order to a
// few worker threads. Used to record the systems (`moreau bench`) and to solve the samples
// (run_solves). Each task writes only its own result slot, so results do not depend on the
// thread count; only timings do.
#include <functional>

namespace moreau::bench {

// Threads parallel_for uses: min(jobs, count), at least 1.
int worker_count(int count, int jobs);

// Runs task(i, worker) for every i in [0, count) on worker_count(count, jobs) threads, the calling
// thread among them; worker in [0, worker_count) names the thread (for per-thread scratch). After
// each task, done(finished, count) is called, one call at a time. Returns when all have run.
void parallel_for(int count, int jobs, const std::function<void(int task, int worker)>& task,
                  const std::function<void(int finished, int count)>& done = {});

}  // namespace moreau::bench
