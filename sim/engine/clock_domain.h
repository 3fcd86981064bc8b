// Simulated time and clock domains.
//
// Time is a count of picoseconds (uint64_t, about 213 days of simulated time). A clock domain has a
// frequency given in whole kilohertz; its period is the exact rational 10^9 / f_kHz picoseconds,
// and cycle c starts at floor(c * 10^9 / f_kHz) ps. Conversions use that rational reduced to lowest
// terms with 128-bit intermediates, so they are exact for every cycle and never drift, however many
// domains with non-integer period ratios coexist (SM 1980 MHz, L2 1600 MHz, memory 3200 MHz).
//
// Left out: clock jitter, spread spectrum, phase offsets between domains (every domain has an edge
// at t = 0) and frequency changes during a run (DVFS).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace warpsim::engine {

/// Simulated time in picoseconds.
using Time = std::uint64_t;
/// A cycle number of one clock domain, counted from t = 0.
using Cycle = std::uint64_t;

/// A component's tick returns kSleep when it needs no further cycle until a message wakes it.
inline constexpr Cycle kSleep = std::numeric_limits<Cycle>::max();
/// A time that is never reached: the result of converting a cycle beyond the representable range.
inline constexpr Time kNever = std::numeric_limits<Time>::max();

/// Highest accepted frequency: 500 GHz (a period of at least 2 ps keeps latencies given in cycles
/// exact after their conversion to picoseconds, see `duration`).
inline constexpr std::uint64_t kMaxFrequencyKhz = 500'000'000;

/// A named clock with a fixed frequency. Immutable after construction; cheap to query.
class ClockDomain {
 public:
  /// A domain of `frequency_khz` kilohertz. Throws warpsim::InputError naming the domain when the
  /// frequency is zero or above kMaxFrequencyKhz.
  ClockDomain(std::string name, std::uint64_t frequency_khz);

  /// A domain of `mhz` megahertz, rounded to the nearest kilohertz. Throws warpsim::InputError
  /// when `mhz` is not finite or outside (0, 500000].
  static ClockDomain from_mhz(std::string name, double mhz);

  /// The domain's name, e.g. "sm" or "memory".
  const std::string& name() const { return name_; }
  /// The frequency in kilohertz.
  std::uint64_t frequency_khz() const { return frequency_khz_; }

  /// The time at which cycle `c` starts: floor(c * 10^9 / f_kHz) ps, or kNever when that does not
  /// fit in 64 bits (or `c` is kSleep).
  Time time_of(Cycle c) const {
    if (c <= fast_cycle_limit_) return c * num_ / den_;  // the common case, inline
    return time_of_wide(c);
  }

  /// The length of `n` cycles, rounded down to whole picoseconds. A message sent at the start of
  /// cycle c with this latency reaches a receiver of the same domain exactly at cycle c + n.
  Time duration(std::uint64_t n) const { return time_of(n); }

  /// The first cycle whose edge is at or after `t`.
  Cycle cycle_at_or_after(Time t) const;

  /// The last cycle whose edge is at or before `t` (the cycle in progress at `t`).
  Cycle cycle_at(Time t) const;

 private:
  Time time_of_wide(Cycle c) const;

  std::string name_;
  std::uint64_t frequency_khz_;
  // Period in ps as the reduced fraction num_ / den_.
  std::uint64_t num_;
  std::uint64_t den_;
  // Largest cycle whose product with num_ fits in 64 bits (fast path).
  Cycle fast_cycle_limit_;
  // Largest time whose product with den_ fits in 64 bits (fast path).
  Time fast_time_limit_;
};

}  // namespace warpsim::engine
