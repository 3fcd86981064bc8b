// The cache lines one global or local warp access touches, as the LSU queues them: each 128 B
// line with its 32 B sector mask and, for stores and atomics, the exact number of distinct bytes
// written and the sectors written completely (for the memory request's write_bytes and
// full_write_mask). Built with the Coalescer; accesses wider than 16 bytes per lane (a multiple of
// 16 up to 128) are coalesced as 16-byte pieces and merged. Fixed-size storage; building
// allocates nothing.
//
// Left out: which lanes touched which line (the timing model needs only lines and sectors).
#pragma once

#include <array>
#include <cstdint>

#include "sim/core/coalescer.h"
#include "sim/core/sm_memory_access.h"
#include "sim/mem/mem_request.h"

namespace warpsim::core {

/// One line of an LSU access.
struct LsuLine {
  std::uint64_t line_address = 0;  ///< Byte address of the line.
  std::uint16_t bytes = 0;         ///< Distinct bytes written (when counted).
  std::uint8_t sectors = 0;        ///< Bit i: sector i is touched.
  std::uint8_t full = 0;           ///< Bit i: all 32 bytes of sector i are written (when counted).
};

/// The lines of one access, ascending by address.
struct LsuLines {
  /// Most lines one access touches: each lane's bytes lie in at most two lines.
  static constexpr int kMaxLines = CoalescedAccess::kMaxSectors;
  int count = 0;
  std::array<LsuLine, kMaxLines> lines{};
};

/// Builds LsuLines; holds the scratch space so that building allocates nothing.
class LsuLineBuilder {
 public:
  /// Throws warpsim::InputError when `config` is not a valid geometry.
  explicit LsuLineBuilder(const CoalescerConfig& config);

  /// Fills `out` with the lines of `access` (none when it has no addresses), with written bytes
  /// when `count_written_bytes`. Throws warpsim::InputError for a width other than 1, 2, 4, 8, 16
  /// or a multiple of 16 up to 128.
  void build(const WarpAccess& access, bool count_written_bytes, LsuLines& out);

 private:
  void coalesce(const WarpAccess& access, LsuLines& out);
  void count_bytes(const WarpAccess& access, LsuLines& out);

  Coalescer coalescer_;
  CoalescedAccess scratch_{};
  std::array<LsuLine, LsuLines::kMaxLines> merge_scratch_{};
  std::array<std::uint32_t, LsuLines::kMaxLines * mem::kSectorsPerLine> byte_masks_{};
};

}  // namespace warpsim::core
