#include "sim/core/lsu_lines.h"

#include <algorithm>
#include <bit>
#include <string>

#include "arch/error.h"
#include "sim/mem/mem_request.h"
#include "traces/lane_mask.h"

namespace warpsim::core {

LsuLineBuilder::LsuLineBuilder(const CoalescerConfig& config) : coalescer_(config) {}

void LsuLineBuilder::build(const WarpAccess& access, bool count_written_bytes, LsuLines& out) {
  out.count = 0;
  if (access.addresses == nullptr) return;
  coalesce(access, out);
  if (count_written_bytes) count_bytes(access, out);
}

void LsuLineBuilder::coalesce(const WarpAccess& access, LsuLines& out) {
  const int width = access.width_bytes;
  const LaneAddresses lanes(access.addresses, kWarpLanes);
  if (is_valid_access_width(width)) {
    coalescer_.coalesce(access.mask, lanes, width, scratch_);
    for (const LineAccess& line : scratch_.line_accesses()) {
      out.lines[static_cast<std::size_t>(out.count++)] =
          LsuLine{line.line_address, 0, static_cast<std::uint8_t>(line.sector_mask), 0};
    }
    return;
  }
  if (width <= 0 || width % kMaxAccessBytes != 0 || width > 8 * kMaxAccessBytes) {
    throw InputError("global/local access of " + std::to_string(width) +
                     " bytes per lane: expected 1, 2, 4, 8, 16 or a multiple of 16 up to 128");
  }
  // Wide accesses: coalesce each 16-byte piece and merge the (sorted) line lists. Every lane
  // touches at most two lines, so the union fits.
  std::array<std::uint64_t, kWarpLanes> shifted{};
  for (int piece = 0; piece < width / kMaxAccessBytes; ++piece) {
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      shifted[static_cast<std::size_t>(lane)] =
          access.addresses[lane] + static_cast<std::uint64_t>(piece) * kMaxAccessBytes;
    }
    coalescer_.coalesce(access.mask, LaneAddresses(shifted), kMaxAccessBytes, scratch_);
    int merged = 0;
    int a = 0;
    int b = 0;
    while (a < out.count || b < scratch_.line_count) {
      const LsuLine* mine = a < out.count ? &out.lines[static_cast<std::size_t>(a)] : nullptr;
      const LineAccess* theirs =
          b < scratch_.line_count ? &scratch_.lines[static_cast<std::size_t>(b)] : nullptr;
      LsuLine next;
      if (theirs == nullptr || (mine != nullptr && mine->line_address < theirs->line_address)) {
        next = *mine;
        ++a;
      } else if (mine == nullptr || theirs->line_address < mine->line_address) {
        next = LsuLine{theirs->line_address, 0, static_cast<std::uint8_t>(theirs->sector_mask), 0};
        ++b;
      } else {
        next = *mine;
        next.sectors = static_cast<std::uint8_t>(next.sectors | theirs->sector_mask);
        ++a;
        ++b;
      }
      merge_scratch_[static_cast<std::size_t>(merged++)] = next;
    }
    std::copy_n(merge_scratch_.begin(), merged, out.lines.begin());
    out.count = merged;
  }
}

void LsuLineBuilder::count_bytes(const WarpAccess& access, LsuLines& out) {
  const auto sectors_per_line = static_cast<std::size_t>(mem::kSectorsPerLine);
  if (contiguous_lanes(access.mask, access.addresses, access.width_bytes)) {
    // One byte range: each sector holds its overlap with the range.
    const std::uint64_t begin = access.addresses[0];
    const std::uint64_t end = begin + static_cast<std::uint64_t>(access.width_bytes) * kWarpLanes;
    for (int i = 0; i < out.count; ++i) {
      LsuLine& line = out.lines[static_cast<std::size_t>(i)];
      int bytes = 0;
      for (std::size_t s = 0; s < sectors_per_line; ++s) {
        const std::uint64_t sector = line.line_address + s * mem::kSectorBytes;
        const std::uint64_t lo = std::max(sector, begin);
        const std::uint64_t hi = std::min(sector + mem::kSectorBytes, end);
        if (lo >= hi) continue;
        bytes += static_cast<int>(hi - lo);
        if (hi - lo == mem::kSectorBytes) line.full = static_cast<std::uint8_t>(line.full | (1u << s));
      }
      line.bytes = static_cast<std::uint16_t>(bytes);
    }
    return;
  }
  std::fill_n(byte_masks_.begin(), static_cast<std::size_t>(out.count) * sectors_per_line, 0u);
  const auto* first = out.lines.begin();
  const auto* last = first + out.count;
  std::uint64_t cached_line = ~std::uint64_t{0};  // neighbouring lanes mostly share a line
  std::size_t cached_index = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if ((access.mask >> lane & 1u) == 0) continue;
    std::uint64_t address = access.addresses[lane];
    const std::uint64_t end = address + static_cast<std::uint64_t>(access.width_bytes);
    while (address < end) {
      const std::uint64_t sector_end = (address | (mem::kSectorBytes - 1)) + 1;
      const std::uint64_t chunk_end = std::min(end, sector_end);
      const auto length = static_cast<unsigned>(chunk_end - address);
      const auto offset = static_cast<unsigned>(address % mem::kSectorBytes);
      const std::uint32_t bits =
          length == mem::kSectorBytes ? ~0u : ((std::uint32_t{1} << length) - 1) << offset;
      const std::uint64_t line = mem::line_of(address);
      if (line != cached_line) {
        const auto* found = std::lower_bound(first, last, line, [](const LsuLine& l, std::uint64_t v) {
          return l.line_address < v;
        });
        cached_line = line;
        cached_index = static_cast<std::size_t>(found - first);
      }
      const std::size_t line_index = cached_index;
      const auto sector = static_cast<std::size_t>((address % mem::kLineBytes) / mem::kSectorBytes);
      byte_masks_[line_index * sectors_per_line + sector] |= bits;
      address = chunk_end;
    }
  }
  for (int i = 0; i < out.count; ++i) {
    LsuLine& line = out.lines[static_cast<std::size_t>(i)];
    int bytes = 0;
    for (std::size_t s = 0; s < sectors_per_line; ++s) {
      const std::uint32_t mask = byte_masks_[static_cast<std::size_t>(i) * sectors_per_line + s];
      bytes += static_cast<int>(traces::popcount(mask));
      if (mask == ~0u) line.full = static_cast<std::uint8_t>(line.full | (1u << s));
    }
    line.bytes = static_cast<std::uint16_t>(bytes);
  }
}

}  // namespace warpsim::core
