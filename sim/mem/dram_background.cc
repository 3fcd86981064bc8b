#include "sim/mem/dram_background.h"

#include <algorithm>

namespace warpsim::mem {

double DramBackground::at(double seconds, double Point::*bytes) const {
  if (points_.empty() || !(seconds > 0)) return 0;
  const Point& first = points_.front();
  if (points_.size() == 1 || seconds <= first.seconds) {
    return first.*bytes * seconds / first.seconds;
  }
  const Point& last = points_.back();
  if (seconds >= last.seconds) {
    // The last segment's rate; never less than the last median (medians of noisy repeats may dip).
    const Point& before = points_[points_.size() - 2];
    const double rate = (last.*bytes - before.*bytes) / (last.seconds - before.seconds);
    return last.*bytes + std::max(0.0, rate) * (seconds - last.seconds);
  }
  const auto after = std::upper_bound(points_.begin(), points_.end(), seconds,
                                      [](double s, const Point& p) { return s < p.seconds; });
  const Point& a = *(after - 1);
  const Point& b = *after;
  return a.*bytes + (b.*bytes - a.*bytes) * (seconds - a.seconds) / (b.seconds - a.seconds);
}

}  // namespace warpsim::mem
