#include "sim/core/stall_reason.h"

namespace warpsim::core {
namespace {

constexpr std::array<std::string_view, kStallReasonCount> kNames = {"selected",
                                                                    "not_selected",
                                                                    "long_scoreboard",
                                                                    "short_scoreboard",
                                                                    "wait",
                                                                    "math_pipe_throttle",
                                                                    "mio_throttle",
                                                                    "lg_throttle",
                                                                    "tex_throttle",
                                                                    "barrier",
                                                                    "branch_resolving",
                                                                    "no_instruction",
                                                                    "drain",
                                                                    "membar",
                                                                    "dispatch_stall",
                                                                    "gmma",
                                                                    "sleeping",
                                                                    "misc"};

}  // namespace

std::string_view stall_reason_name(StallReason reason) {
  return kNames[static_cast<std::size_t>(reason)];
}

std::optional<StallReason> parse_stall_reason(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<StallReason>(i);
  }
  return std::nullopt;
}

std::uint64_t StallCounters::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t c : warp_cycles) sum += c;
  return sum;
}

StallCounters& StallCounters::operator+=(const StallCounters& other) {
  for (std::size_t i = 0; i < warp_cycles.size(); ++i) warp_cycles[i] += other.warp_cycles[i];
  return *this;
}

}  // namespace warpsim::core
