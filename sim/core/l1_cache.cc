#include "sim/core/l1_cache.h"

#include <string>

#include "arch/error.h"

namespace warpsim::core {

L1Cache::L1Cache(const SmMemoryConfig& config, std::uint64_t carveout_bytes) {
  if (carveout_bytes > config.unified_l1_shared_bytes) {
    throw InputError("shared-memory carve-out of " + std::to_string(carveout_bytes) +
                     " bytes exceeds sm_memory.unified_l1_shared_bytes (" +
                     std::to_string(config.unified_l1_shared_bytes) + ")");
  }
  const std::uint64_t set_bytes =
      static_cast<std::uint64_t>(config.l1_ways) * static_cast<std::uint64_t>(config.l1_line_bytes);
  const std::uint64_t sets = (config.unified_l1_shared_bytes - carveout_bytes) / set_bytes;
  capacity_bytes_ = sets * set_bytes;
  if (sets == 0) return;
  tags_.emplace(mem::CacheTagsConfig{.size_bytes = capacity_bytes_,
                                     .ways = static_cast<std::uint32_t>(config.l1_ways),
                                     .replacement = config.l1_replacement,
                                     .seed = 1},
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
