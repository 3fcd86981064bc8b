// A progress bar for long simulations, drawn on stderr: kernels done, CTAs retired, simulated
// cycles and the simulation rate. It draws only when enabled (an interactive terminal and no
// --quiet), redraws at most a few times a second, and costs one clock read per update call, so the
// simulator calls update() at coarse points (a CTA retiring), never per cycle.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace warpsim::cli {

/// What the simulation has done so far.
struct ProgressState {
  std::uint64_t kernels_done = 0;
  std::uint64_t kernels_total = 0;
  std::uint64_t ctas_retired = 0;
  std::uint64_t ctas_total = 0;
  std::uint64_t simulated_cycles = 0;
  std::uint64_t warp_instructions = 0;
};

/// Renders one line, e.g. "[#####.....] kernel 1/3  CTAs 120/264  1.2M cycles  3.4M inst/s".
std::string render_progress(const ProgressState& state, double elapsed_seconds, int width = 24);

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  /// `enabled` is false for --quiet or when `os` is not a terminal; a disabled bar writes nothing.
  ProgressBar(std::ostream& os, bool enabled,
              std::chrono::milliseconds min_interval = std::chrono::milliseconds(200));
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// Redraws if enabled and at least min_interval has passed since the last draw.
  void update(const ProgressState& state);
  /// Draws the final state and ends the line (called automatically by the destructor).
  void finish(const ProgressState& state);
  /// Number of lines drawn so far (for tests).
  int draws() const { return draws_; }

 private:
  void draw(const ProgressState& state, Clock::time_point now);

  std::ostream& os_;
  bool enabled_;
  bool finished_ = false;
  std::chrono::milliseconds min_interval_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  ProgressState last_state_;
  int draws_ = 0;
};

}  // namespace warpsim::cli
