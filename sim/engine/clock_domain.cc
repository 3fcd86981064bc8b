#include "sim/engine/clock_domain.h"

#include <cmath>
#include <numeric>
#include <utility>

#include "arch/error.h"

namespace warpsim::engine {
namespace {

using Wide = unsigned __int128;

constexpr std::uint64_t kPicosecondsPerKhzPeriod = 1'000'000'000;  // 10^9 ps = 1 ms = 1 / 1 kHz.

}  // namespace

ClockDomain::ClockDomain(std::string name, std::uint64_t frequency_khz)
    : name_(std::move(name)), frequency_khz_(frequency_khz) {
  if (frequency_khz_ == 0 || frequency_khz_ > kMaxFrequencyKhz) {
    throw InputError("clock domain '" + name_ + "': frequency " + std::to_string(frequency_khz_) +
                     " kHz is outside the accepted range 1 .. " + std::to_string(kMaxFrequencyKhz) +
                     " kHz");
  }
  const std::uint64_t g = std::gcd(kPicosecondsPerKhzPeriod, frequency_khz_);
  num_ = kPicosecondsPerKhzPeriod / g;
  den_ = frequency_khz_ / g;
  fast_cycle_limit_ = std::numeric_limits<std::uint64_t>::max() / num_;
  fast_time_limit_ = (std::numeric_limits<std::uint64_t>::max() - num_) / den_;
}

ClockDomain ClockDomain::from_mhz(std::string name, double mhz) {
  if (!std::isfinite(mhz) || mhz <= 0.0 || mhz > static_cast<double>(kMaxFrequencyKhz) / 1000.0) {
    throw InputError("clock domain '" + name + "': frequency " + std::to_string(mhz) +
                     " MHz is outside the accepted range (0, " +
                     std::to_string(kMaxFrequencyKhz / 1000) + "] MHz");
  }
  const auto khz = static_cast<std::uint64_t>(std::llround(mhz * 1000.0));
  return ClockDomain(std::move(name), khz);
}

Time ClockDomain::time_of_wide(Cycle c) const {
  const Wide t = static_cast<Wide>(c) * num_ / den_;
  if (t >= kNever) return kNever;
  return static_cast<Time>(t);
}

Cycle ClockDomain::cycle_at_or_after(Time t) const {
  // time_of(c) >= t  <=>  c * num >= t * den  <=>  c >= ceil(t * den / num).
  if (t <= fast_time_limit_) return (t * den_ + num_ - 1) / num_;
  return static_cast<Cycle>((static_cast<Wide>(t) * den_ + num_ - 1) / num_);
}

Cycle ClockDomain::cycle_at(Time t) const {
  // time_of(c) <= t  <=>  c * num < (t + 1) * den  <=>  c <= ((t + 1) * den - 1) / num.
  if (t <= fast_time_limit_) return ((t + 1) * den_ - 1) / num_;
  return static_cast<Cycle>(((static_cast<Wide>(t) + 1) * den_ - 1) / num_);
}

}  // namespace warpsim::engine
