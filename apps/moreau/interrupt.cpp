#include "interrupt.hpp"

#include <csignal>

#include "moreau/solvers/stop.hpp"

namespace moreau::cli {

namespace {
// The library's stop flag (a lock-free atomic): the solvers' loops see it within an iteration.
extern "C" void on_signal(int) {
  request_stop();
}
}  // namespace

InterruptGuard::InterruptGuard()
    : old_int_(std::signal(SIGINT, on_signal)), old_term_(std::signal(SIGTERM, on_signal)) {
  clear_stop_request();
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
}

bool interrupted() {
  return stop_requested();
}

}  // namespace moreau::cli
