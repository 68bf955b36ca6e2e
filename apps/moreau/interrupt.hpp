#pragma once
// Ctrl-C (SIGINT) and SIGTERM during a long command (`moreau simulate`, `moreau bench`): while an
// InterruptGuard lives, the signals only set the library's stop flag (solvers/stop.hpp), which
// ends the running solve within one iteration; the command polls interrupted() between steps or
// tasks, stops, removes its temporary output and exits with kExitInterrupted (128 +
// SIGINT, the shell's convention). Output files are written to a temporary and renamed on
// success (output.hpp), so an interrupted run leaves the old file or none (docs/cli.md).
namespace moreau::cli {

constexpr int kExitInterrupted = 130;

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers and clears the flag
  ~InterruptGuard();  // restores the previous handlers
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  void (*old_int_)(int);
  void (*old_term_)(int);
};

// True once SIGINT or SIGTERM arrived under an InterruptGuard.
bool interrupted();

}  // namespace moreau::cli
