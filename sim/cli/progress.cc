#include "sim/cli/progress.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace warpsim::cli {
namespace {

// 1234 -> "1.2K", 5600000 -> "5.6M".
std::string human(double v) {
  static constexpr const char* kSuffix[] = {"", "K", "M", "G", "T"};
  int i = 0;
  while (v >= 1000.0 && i < 4) {
    v /= 1000.0;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, i == 0 ? "%.0f%s" : "%.1f%s", v, kSuffix[i]);
  return buf;
}

}  // namespace

std::string render_progress(const ProgressState& s, double elapsed_seconds, int width) {
  const double fraction =
      s.ctas_total == 0 ? 0.0
                        : std::min(1.0, static_cast<double>(s.ctas_retired) /
                                            static_cast<double>(s.ctas_total));
  const int filled = static_cast<int>(fraction * width);
  std::string line = "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
  line += " kernel " + std::to_string(std::min(s.kernels_done + 1, s.kernels_total)) + "/" +
          std::to_string(s.kernels_total);
  line += "  CTAs " + std::to_string(s.ctas_retired) + "/" + std::to_string(s.ctas_total);
  line += "  " + human(static_cast<double>(s.simulated_cycles)) + " cycles";
  const double rate =
      elapsed_seconds > 0 ? static_cast<double>(s.warp_instructions) / elapsed_seconds : 0.0;
  line += "  " + human(rate) + " inst/s";
  return line;
}

ProgressBar::ProgressBar(std::ostream& os, bool enabled, std::chrono::milliseconds min_interval)
    : os_(os), enabled_(enabled), min_interval_(min_interval), start_(Clock::now()) {
  last_draw_ = start_ - min_interval_;
}

ProgressBar::~ProgressBar() {
  if (!finished_ && draws_ > 0) finish(last_state_);
}

void ProgressBar::update(const ProgressState& state) {
  last_state_ = state;
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now - last_draw_ < min_interval_) return;
  draw(state, now);
}

void ProgressBar::finish(const ProgressState& state) {
  last_state_ = state;
  if (!enabled_ || finished_) return;
  finished_ = true;
  draw(state, Clock::now());
  os_ << "\n";
  os_.flush();
}

void ProgressBar::draw(const ProgressState& state, Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // Carriage return and erase-to-end-of-line redraw the bar in place.
  os_ << "\r" << render_progress(state, elapsed) << "\x1b[K";
  os_.flush();
  last_draw_ = now;
  ++draws_;
}

}  // namespace warpsim::cli
