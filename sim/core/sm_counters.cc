#include "sim/core/sm_counters.h"

namespace warpsim::core {

std::uint64_t SmCounters::total_issued() const {
  std::uint64_t sum = 0;
  for (std::uint64_t n : inst_issued) sum += n;
  return sum;
}

}  // namespace warpsim::core
