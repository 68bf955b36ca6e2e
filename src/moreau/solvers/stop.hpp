#pragma once
// A request that the solvers' iteration loops end now (docs/cli.md, "Interrupting a run"): a
// signal (the command line's SIGINT/SIGTERM handler calls request_stop) or the calling thread's
// deadline (a step's time budget, `--max-step-time`). A loop that sees it stops at once; solve()
// then reports SolveStatus::Failed with stop_message(). Every solver's loop polls it once per
// iteration (Lemke once per pivot), so a step ends within one iteration of the request.
#include <chrono>
#include <string>

namespace moreau {

// Async-signal-safe: sets a lock-free atomic flag.
void request_stop();
void clear_stop_request();
bool stop_requested();

// The calling thread's deadline; none by default. A passed deadline stops this thread's solves
// only (the worlds of a Batch run on threads of their own).
void set_deadline(std::chrono::steady_clock::time_point t);
void clear_deadline();
bool deadline_passed();

// What the loops poll: a stop request or this thread's passed deadline.
bool should_stop();
// Why: "interrupted by a signal" or "over its time budget".
std::string stop_message();

}  // namespace moreau
