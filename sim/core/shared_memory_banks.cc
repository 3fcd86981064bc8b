#include "sim/core/shared_memory_banks.h"

#include <algorithm>
#include <bit>
#include <string>

#include "arch/error.h"

namespace warpsim::core {

SharedMemoryBanks::SharedMemoryBanks(const SharedMemoryBankConfig& config) : config_(config) {
  if (config.banks < 1 || config.banks > kMaxBanks) {
    throw InputError("shared memory: field 'banks' must be 1.." + std::to_string(kMaxBanks) +
                     " (got " + std::to_string(config.banks) + ")");
  }
  if (config.bank_width_bytes != 4 && config.bank_width_bytes != 8 &&
      config.bank_width_bytes != 16) {
    throw InputError("shared memory: field 'bank_width_bytes' must be 4, 8 or 16 (got " +
                     std::to_string(config.bank_width_bytes) + ")");
  }
  bank_shift_ = std::countr_zero(static_cast<unsigned>(config.bank_width_bytes));
}

SharedAccessCost SharedMemoryBanks::access(std::uint32_t active_mask, LaneAddresses addresses,
                                           int width_bytes) const {
  if (!is_valid_access_width(width_bytes)) {
    throw InputError("shared memory access: width " + std::to_string(width_bytes) +
                     " bytes, expected 1, 2, 4, 8 or 16");
  }
  const int wavefront_bytes = config_.banks * config_.bank_width_bytes;
  const int lanes_per_phase = std::clamp(wavefront_bytes / width_bytes, 1, kWarpLanes);

  SharedAccessCost cost;
  for (int first = 0; first < kWarpLanes; first += lanes_per_phase) {
    const int count = std::min(lanes_per_phase, kWarpLanes - first);
    const int wavefronts =
        phase_wavefronts(active_mask, addresses, width_bytes, first, count, cost.max_ways);
    if (wavefronts == 0) continue;
    cost.wavefronts += wavefronts;
    ++cost.ideal_wavefronts;
  }
  cost.bank_conflicts = cost.wavefronts - cost.ideal_wavefronts;
  return cost;
}

int SharedMemoryBanks::phase_wavefronts(std::uint32_t active_mask, LaneAddresses addresses,
                                        int width_bytes, int first, int count,
                                        int& max_ways) const {
  std::array<std::uint64_t, kMaxWordsPerPhase> words;
  int word_count = 0;
  for (int lane = first; lane < first + count; ++lane) {
    if ((active_mask >> lane & 1u) == 0) continue;
    const std::uint64_t address = addresses[lane];
    const std::uint64_t first_word = address >> bank_shift_;
    const std::uint64_t offset = address & ((std::uint64_t{1} << bank_shift_) - 1);
    const int extra_words = static_cast<int>((offset + width_bytes - 1) >> bank_shift_);
    for (int i = 0; i <= extra_words; ++i) words[word_count++] = first_word + i;
  }
  if (word_count == 0) return 0;

  std::sort(words.begin(), words.begin() + word_count);
  const auto distinct_end = std::unique(words.begin(), words.begin() + word_count);
  std::array<std::uint8_t, kMaxBanks> ways{};
  int phase_ways = 0;
  const auto banks = static_cast<std::uint64_t>(config_.banks);
  for (auto it = words.begin(); it != distinct_end; ++it) {
    const int bank_ways = ++ways[*it % banks];
    phase_ways = std::max(phase_ways, bank_ways);
  }
  max_ways = std::max(max_ways, phase_ways);
  return phase_ways;
}

}  // namespace warpsim::core
