#include "interrupt.hpp"

#include <csignal>

namespace moreau::cli {

namespace {
volatile std::sig_atomic_t g_interrupted = 0;  // a signal handler may only set such a flag
extern "C" void on_signal(int) {
  g_interrupted = 1;
}
}  // namespace

InterruptGuard::InterruptGuard()
    : old_int_(std::signal(SIGINT, on_signal)), old_term_(std::signal(SIGTERM, on_signal)) {
  g_interrupted = 0;
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
}

bool interrupted() {
  return g_interrupted != 0;
}

}  // namespace moreau::cli
