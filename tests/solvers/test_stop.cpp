// Stop requests (solvers/stop.hpp): every moreau solver's loop polls them, so a solve that would
// run for hours (tol 0, a billion iterations) ends within an iteration of a signal, with status
// Failed and the reason. A solver deaf to the request hangs this test until ctest's timeout. A
// thread's deadline stops that thread's solves only.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "moreau/solvers/solver.hpp"
#include "moreau/solvers/stop.hpp"
#include "solvers/implicit_problems.hpp"

using namespace moreau;

namespace {

Problem hard_problem() {
  std::mt19937 rng(7);
  return testing_problems::random_contacts(rng, 12, 30, 0.5, 1.0, 2, 2);
}

SolverSettings never_converging() {
  SolverSettings s;
  s.tol = 0.0;
  s.max_iters = 1000000000;
  return s;
}

}  // namespace

TEST(Stop, ASignalEndsEverySolversLoop) {
  const Problem p = hard_problem();
  for (const SolverInfo& info : solver_registry()) {
    if (info.peer || !info.handles_contacts) continue;  // Siconos's loops are its own
    SolverWorkspace ws;
    Solution sol;
    using Clock = std::chrono::steady_clock;
    Clock::time_point ended;
    std::thread solver([&] {
      solve(info.name, p, never_converging(), {}, ws, sol);
      ended = Clock::now();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // most are in their loop by now
    const Clock::time_point requested = Clock::now();
    request_stop();
    solver.join();
    clear_stop_request();
    if (sol.message.find("interrupted by a signal") == std::string::npos) {
      // Only a solve that ended before the request (lemke's finite pivoting, a stall rule) may end
      // otherwise; 100 ms covers a thread descheduled between its last poll and its return on a
      // loaded machine. A loop deaf to the request ends later, or hangs here.
      EXPECT_LT(ended - requested, std::chrono::milliseconds(100))
          << info.name << " ended after the stop request without it: " << sol.message;
      continue;
    }
    EXPECT_EQ(sol.status, SolveStatus::Failed) << info.name;
  }
}

TEST(Stop, ADeadlineStopsItsOwnThreadOnly) {
  const Problem p = hard_problem();
  SolverSettings s = never_converging();
  s.max_iters = 200;
  // Another thread's passed deadline does not touch this thread's solve: it runs its 200.
  std::thread other([] { set_deadline(std::chrono::steady_clock::now()); });
  other.join();
  SolverWorkspace ws;
  Solution sol;
  solve("pgs-ncp", p, s, {}, ws, sol);
  EXPECT_EQ(sol.status, SolveStatus::MaxIterations);
  EXPECT_EQ(sol.iterations, 200);
  // This thread's own passed deadline: no iteration, the reason given.
  set_deadline(std::chrono::steady_clock::now());
  solve("pgs-ncp", p, s, {}, ws, sol);
  clear_deadline();
  EXPECT_EQ(sol.status, SolveStatus::Failed);
  EXPECT_EQ(sol.iterations, 0);
  EXPECT_NE(sol.message.find("over its time budget"), std::string::npos) << sol.message;
  solve("pgs-ncp", p, s, {}, ws, sol);  // cleared: runs again
  EXPECT_EQ(sol.iterations, 200);
}
