// parallel_for (parallel.hpp): an atomic counter hands out the task indices; a mutex serializes
// the `done` callback and its count.
#include "moreau/bench/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace moreau::bench {

int worker_count(int count, int jobs) {
  return std::max(1, std::min(jobs, count));
}

void parallel_for(int count, int jobs, const std::function<void(int task, int worker)>& task,
                  const std::function<void(int finished, int count)>& done) {
  std::atomic<int> next{0};
  std::mutex done_mutex;
  int finished = 0;
  auto worker = [&](int w) {
    for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      task(i, w);
      if (done) {
        std::lock_guard<std::mutex> lock(done_mutex);
        done(++finished, count);
      }
    }
  };
  const int threads = worker_count(count, jobs);
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (std::thread& th : pool) th.join();
}

}  // namespace moreau::bench
