#include "moreau/solvers/stop.hpp"

#include <atomic>

namespace moreau {

namespace {
std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free,
              "a signal handler may only set a lock-free flag");
thread_local bool t_has_deadline = false;
thread_local std::chrono::steady_clock::time_point t_deadline;
}  // namespace

void request_stop() {
  g_stop.store(1, std::memory_order_relaxed);
}

void clear_stop_request() {
  g_stop.store(0, std::memory_order_relaxed);
}

bool stop_requested() {
  return g_stop.load(std::memory_order_relaxed) != 0;
}

void set_deadline(std::chrono::steady_clock::time_point t) {
  t_has_deadline = true;
  t_deadline = t;
}

void clear_deadline() {
  t_has_deadline = false;
}

bool deadline_passed() {
  return t_has_deadline && std::chrono::steady_clock::now() > t_deadline;
}

bool should_stop() {
  return stop_requested() || deadline_passed();
}

std::string stop_message() {
  return stop_requested() ? "stopped: interrupted by a signal"
                          : "stopped: over its time budget (--max-step-time)";
}

}  // namespace moreau
