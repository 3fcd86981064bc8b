#include "sim/core/coalescer.h"

#include <algorithm>
#include <bit>
#include <string>

#include "arch/error.h"

namespace warpsim::core {
namespace {

constexpr int kMaxSectorsPerLine = 32;  // bits in LineAccess::sector_mask

bool is_power_of_two(int value) {
  return value > 0 && std::has_single_bit(static_cast<unsigned>(value));
}

}  // namespace

Coalescer::Coalescer(const CoalescerConfig& config) : config_(config) {
  if (!is_power_of_two(config.sector_bytes) || config.sector_bytes < kMaxAccessBytes) {
    throw InputError("coalescer: field 'sector_bytes' must be a power of two of at least " +
                     std::to_string(kMaxAccessBytes) + " (got " +
                     std::to_string(config.sector_bytes) + ")");
  }
  if (!is_power_of_two(config.line_bytes) || config.line_bytes < config.sector_bytes ||
      config.line_bytes / config.sector_bytes > kMaxSectorsPerLine) {
    throw InputError("coalescer: field 'line_bytes' must be a power of two holding 1.." +
                     std::to_string(kMaxSectorsPerLine) + " sectors of " +
                     std::to_string(config.sector_bytes) + " bytes (got " +
                     std::to_string(config.line_bytes) + ")");
  }
  sector_shift_ = std::countr_zero(static_cast<unsigned>(config.sector_bytes));
  line_shift_ = std::countr_zero(static_cast<unsigned>(config.line_bytes));
}

void Coalescer::coalesce(std::uint32_t active_mask, LaneAddresses addresses, int width_bytes,
                         CoalescedAccess& out) const {
  if (!is_valid_access_width(width_bytes)) {
    throw InputError("global memory access: width " + std::to_string(width_bytes) +
                     " bytes, expected 1, 2, 4, 8 or 16");
  }
  out.requests = active_mask != 0 ? 1 : 0;
  out.sector_count = 0;
  out.line_count = 0;
  if (active_mask == 0) return;

  const int sectors_per_line_shift = line_shift_ - sector_shift_;
  const std::uint64_t sector_in_line_mask = (std::uint64_t{1} << sectors_per_line_shift) - 1;
  if (contiguous_lanes(active_mask, addresses.data(), width_bytes)) {
    // One byte range: its sectors in order, no sort needed.
    const std::uint64_t first = addresses[0] >> sector_shift_;
    const std::uint64_t last =
        (addresses[0] + static_cast<std::uint64_t>(width_bytes) * kWarpLanes - 1) >> sector_shift_;
    for (std::uint64_t sector = first; sector <= last; ++sector) {
      const std::uint64_t line_address = (sector >> sectors_per_line_shift) << line_shift_;
      if (out.line_count == 0 || out.lines[out.line_count - 1].line_address != line_address) {
        out.lines[out.line_count++] = LineAccess{line_address, 0};
      }
      out.lines[out.line_count - 1].sector_mask |= 1u << (sector & sector_in_line_mask);
      out.sectors[out.sector_count++] = sector << sector_shift_;
    }
    return;
  }

  // Sector indices first; a lane touches at most two since width <= sector size.
  const std::uint64_t sector_offset_mask = (std::uint64_t{1} << sector_shift_) - 1;
  int count = 0;
  for (std::uint32_t mask = active_mask; mask != 0; mask &= mask - 1) {
    const std::uint64_t address = addresses[std::countr_zero(mask)];
    const std::uint64_t sector = address >> sector_shift_;
    out.sectors[count++] = sector;
    if ((address & sector_offset_mask) + static_cast<unsigned>(width_bytes) >
        (sector_offset_mask + 1)) {
      out.sectors[count++] = sector + 1;
    }
  }
  // Coalesced lanes come in address order already.
  if (!std::is_sorted(out.sectors.begin(), out.sectors.begin() + count)) {
    std::sort(out.sectors.begin(), out.sectors.begin() + count);
  }
  out.sector_count = static_cast<int>(
      std::unique(out.sectors.begin(), out.sectors.begin() + count) - out.sectors.begin());

  // Sorted sectors group by line; convert indices to byte addresses on the way.
  for (int i = 0; i < out.sector_count; ++i) {
    const std::uint64_t sector = out.sectors[i];
    const std::uint64_t line = sector >> sectors_per_line_shift;
    const std::uint64_t line_address = line << line_shift_;
    if (out.line_count == 0 || out.lines[out.line_count - 1].line_address != line_address) {
      out.lines[out.line_count++] = LineAccess{line_address, 0};
    }
    out.lines[out.line_count - 1].sector_mask |= 1u << (sector & sector_in_line_mask);
    out.sectors[i] = sector << sector_shift_;
  }
}

}  // namespace warpsim::core
