#include "sim/core/l1_cache.h"

#include <algorithm>
#include <string>

#include "arch/error.h"

namespace warpsim::core {

L1Cache::L1Cache(const SmMemoryConfig& config, std::uint64_t carveout_bytes) {
  if (carveout_bytes > config.unified_l1_shared_bytes) {
    throw InputError("shared-memory carve-out of " + std::to_string(carveout_bytes) +
                     " bytes exceeds sm_memory.unified_l1_shared_bytes (" +
                     std::to_string(config.unified_l1_shared_bytes) + ")");
  }
  const auto line = static_cast<std::uint64_t>(config.l1_line_bytes);
  const std::uint64_t left = config.unified_l1_shared_bytes - carveout_bytes;
  // Fixed sets: the carve-out takes ways. Fixed ways: it takes sets.
  const bool fixed_sets = config.l1_sets > 0;
  const std::uint64_t sets =
      fixed_sets ? static_cast<std::uint64_t>(config.l1_sets)
                 : left / (static_cast<std::uint64_t>(config.l1_ways) * line);
  const std::uint64_t ways =
      fixed_sets ? left / (sets * line) : static_cast<std::uint64_t>(config.l1_ways);
  capacity_bytes_ = sets * ways * line;
  if (capacity_bytes_ == 0) return;
  tags_.emplace(mem::CacheTagsConfig{.size_bytes = capacity_bytes_,
                                     .ways = static_cast<std::uint32_t>(ways),
                                     .replacement = config.l1_replacement,
                                     .seed = 1,
                                     .replacement_candidates = static_cast<std::uint32_t>(
                                         std::min<std::uint64_t>(config.l1_replacement_candidates,
                                                                 ways)),
                                     .xor_index = fixed_sets},
                "sm_memory.l1");
}

std::uint8_t L1Cache::valid_sectors(std::uint64_t line_address) const {
  return tags_ ? tags_->probe(line_address).valid_mask : 0;
}

std::uint8_t L1Cache::load(std::uint64_t line_address, std::uint8_t sectors) {
  if (!tags_) return 0;
  return tags_->access(line_address, sectors, 0).hit_mask;
}

std::uint8_t L1Cache::store(std::uint64_t line_address, std::uint8_t sectors) {
  // Write-allocate without a fetch: the same tag update as a load's, the data coming from the
  // store itself.
  return load(line_address, sectors);
}

}  // namespace warpsim::core
