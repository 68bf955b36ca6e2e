#pragma once
// A one-line progress bar on stderr for long runs: drawn only when stderr is a terminal, first
// after 0.5 s of wall time, then at most 10 times a second. Shows steps, percent, simulated
// time and the estimated time left.
#include <chrono>
#include <cstdint>
#include <string>

namespace moreau::cli {

class ProgressBar {
 public:
  // total: number of steps; enabled: false disables it entirely (--quiet). It also stays silent
  // when stderr is not a terminal. `unit` names what is counted; for anything but "steps" the
  // simulated time is not shown.
  ProgressBar(int64_t total, bool enabled, std::string unit = "steps");
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // After step `done` (1..total) at simulated time t [s]. Cheap when nothing is drawn.
  void update(int64_t done, double t) {
    if (!active_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_) return;
    next_ = now + std::chrono::milliseconds(100);
    draw(done, t, now);
  }
  // Erases the bar (if drawn) so that what follows starts on a clean line.
  void finish();

 private:
  void draw(int64_t done, double t, std::chrono::steady_clock::time_point now);

  int64_t total_;
  std::string unit_;
  bool active_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, next_;
};

}  // namespace moreau::cli
