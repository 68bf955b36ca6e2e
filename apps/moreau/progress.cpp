#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

namespace moreau::cli {

ProgressBar::ProgressBar(int64_t total, bool enabled, std::string unit)
    : total_(total),
      unit_(std::move(unit)),
      active_(enabled && total > 0 && ::isatty(STDERR_FILENO) == 1) {
  start_ = std::chrono::steady_clock::now();
  next_ = start_ + std::chrono::milliseconds(500);  // short runs never show a bar
}

namespace {
std::string format_seconds(double s) {
  char buf[32];
  if (s < 60.0)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600.0)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s / 3600),
                  static_cast<int>(s / 60) % 60);
  return buf;
}
}  // namespace

void ProgressBar::draw(int64_t done, double t, std::chrono::steady_clock::time_point now) {
  constexpr int kWidth = 30;
  const double frac = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const int filled = static_cast<int>(frac * kWidth);
  std::string bar(filled, '#');
  bar.resize(kWidth, '-');
  const std::string eta =
      done > 0 ? format_seconds(elapsed * (1.0 - frac) / frac) : std::string("?");
  // \r returns to the start of the line, \033[K clears what a longer previous line left.
  char time_part[48] = "";
  if (unit_ == "steps") std::snprintf(time_part, sizeof time_part, "  t = %.4g s", t);
  std::fprintf(stderr, "\r[%s] %lld/%lld %s %5.1f%%%s  ETA %s\033[K", bar.c_str(),
               static_cast<long long>(done), static_cast<long long>(total_), unit_.c_str(),
               100.0 * frac, time_part, eta.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  drawn_ = false;
  active_ = false;
}

}  // namespace moreau::cli
