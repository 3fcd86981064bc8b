// DRAM traffic the GPU makes of its own accord while a kernel runs: what ncu's dram__bytes_read
// and dram__bytes_write count beyond the kernel's own requests (firmware and housekeeping; on our
// H200 an idle kernel of 50 ms reads about 0.15 MB and writes whole MiB at about 19 MB/s,
// validate/reference/h200/idle_traffic*.tsv). Described by the median bytes an idle kernel of
// each measured length reads and writes (arch hbm.background_*), interpolated linearly in the
// kernel's simulated time: in proportion below the first length, at the last segment's rate
// beyond the last.
//
// Leaves out: the traffic's timing (it takes no channel time from the kernel's requests, whose
// bandwidth it shares for well under 0.1 %) and its spread from run to run (a median, not a draw).
#pragma once

#include <utility>
#include <vector>

namespace warpsim::mem {

class DramBackground {
 public:
  struct Point {
    double seconds = 0;
    double read_bytes = 0;
    double write_bytes = 0;
  };

  DramBackground() = default;
  /// `points` in increasing seconds, each above zero (arch/checks.cc enforces it for presets).
  explicit DramBackground(std::vector<Point> points) : points_(std::move(points)) {}

  bool empty() const { return points_.empty(); }
  /// Median background bytes over a kernel of `seconds`.
  double read_bytes(double seconds) const { return at(seconds, &Point::read_bytes); }
  double write_bytes(double seconds) const { return at(seconds, &Point::write_bytes); }

 private:
  double at(double seconds, double Point::*bytes) const;

  std::vector<Point> points_;
};

}  // namespace warpsim::mem
