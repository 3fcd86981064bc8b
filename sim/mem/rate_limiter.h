// A per-cycle bandwidth budget (a token bucket with `burst_cycles` cycles of burst, and
// borrowing).
//
// Each cycle adds `rate` units (bytes, sectors) up to `rate` × `burst_cycles`. A transfer may
// start whenever the budget is positive and then subtracts its whole cost, so a transfer larger
// than the budget borrows from the following cycles. Over any long stream the units moved never
// exceed rate × (cycles + burst_cycles) + one transfer, and a saturating stream moves exactly
// `rate` per cycle on average. The budget is refilled lazily from the cycle difference, so a
// component that sleeps for a stretch pays nothing for it.
//
// Left out: fractional rates (rates are whole units per cycle).
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/engine/clock_domain.h"

namespace warpsim::mem {

/// Whole units per cycle with borrowing; see the file comment.
class RateLimiter {
 public:
  /// `rate` units per cycle (0: unlimited), saved up for at most `burst_cycles` cycles (at least 1).
  explicit RateLimiter(std::int64_t rate = 0, std::int64_t burst_cycles = 1)
      : rate_(rate), cap_(rate * std::max<std::int64_t>(1, burst_cycles)), tokens_(cap_) {}

  /// Brings the budget up to cycle `now` (cycles never go backwards).
  void refill(engine::Cycle now) {
    if (now <= last_) return;
    const std::uint64_t gap = now - last_;
    last_ = now;
    if (rate_ == 0) return;
    const std::int64_t missing = cap_ - tokens_;
    if (missing <= 0) return;
    const std::uint64_t cycles_to_full = static_cast<std::uint64_t>((missing + rate_ - 1) / rate_);
    tokens_ = gap >= cycles_to_full ? cap_ : tokens_ + static_cast<std::int64_t>(gap) * rate_;
  }
  /// True when a transfer may start this cycle.
  bool available() const { return rate_ == 0 || tokens_ > 0; }
  /// Charges a transfer of `cost` units.
  void consume(std::int64_t cost) {
    if (rate_ != 0) tokens_ -= cost;
  }
  /// The first cycle at or after `now` at which `available()` holds (after refill(now)).
  engine::Cycle next_available(engine::Cycle now) const {
    if (available()) return now;
    return now + static_cast<std::uint64_t>((rate_ - tokens_) / rate_);
  }
  /// Units per cycle (0: unlimited).
  std::int64_t rate() const { return rate_; }

 private:
  std::int64_t rate_;
  std::int64_t cap_;
  std::int64_t tokens_;
  engine::Cycle last_ = 0;
};

}  // namespace warpsim::mem
