// The tag array of an SM's L1 data cache: the part of the unified L1 / shared-memory array that
// the kernel's shared-memory carve-out leaves, as 128-byte lines of four 32-byte sectors in a
// set-associative mem::CacheTags with a registered replacement policy. Geometry: fixed ways, the
// carve-out taking sets (a modulo set index), or fixed sets, the carve-out taking ways (an
// XOR-folded set index: the H200's L1 holds as many lines of any power-of-two stride as of
// consecutive lines, validate/reference/h200/l1_geometry.tsv).
//
// Policy: loads allocate the line on a miss and mark their sectors valid at lookup ("present or
// being fetched": the MSHRs know which are still in flight), so the contents are a function of the
// access sequence alone. Stores write through and allocate without fetching: a store's line is
// installed (or refreshed) with the stored sectors valid, as on the H200, whose ncu counts store
// sectors that hit in l1tex__t_sector_hit_rate: saxpy's store to the y it just loaded hits (33 %
// of its sectors), and a naive transpose's scattered 4-byte stores hit the lines earlier stores
// left (53-63 %; validate/reference/h200/raw.csv). So output lines take L1 room from input lines
// that would be read again (the H200's stores and loads evict alike: l1_store_alloc.tsv). Victims
// come from the registered replacement policy the description names (l1.replacement_policy; its
// random_lru candidates clamped to the ways the carve-out leaves). Capacity = unified bytes − carve-out, rounded down to whole sets (whole ways); no
// capacity means every access misses and nothing is kept. Cold (empty) after construction and
// reset().
//
// Left out: data, byte masks (a store to part of a sector makes it valid here, where the hardware
// fetches the rest when a load needs it), the texture path, invalidation by atomics or by other
// SMs' stores (L1 is not coherent), and eviction of lines whose sectors are still in flight (the MSHR delivers the data to
// its waiters regardless).
#pragma once

#include <cstdint>
#include <optional>

#include "sim/core/sm_memory_config.h"
#include "sim/mem/cache_tags.h"

namespace warpsim::core {

/// The L1 tags of one SM for one kernel.
class L1Cache {
 public:
  /// Builds the tags for `config` with `carveout_bytes` taken by shared memory. Throws
  /// warpsim::InputError when the carve-out exceeds the unified capacity or the replacement policy
  /// is unknown.
  L1Cache(const SmMemoryConfig& config, std::uint64_t carveout_bytes);

  /// Sectors of `line_address` currently valid (no replacement update).
  std::uint8_t valid_sectors(std::uint64_t line_address) const;

  /// A load lookup of `sectors`: returns those that were valid, and allocates the line (evicting a
  /// victim if needed) with `sectors` marked valid.
  std::uint8_t load(std::uint64_t line_address, std::uint8_t sectors);

  /// A store lookup of `sectors`: returns those that were valid, and allocates the line (evicting a
  /// victim if needed) with `sectors` marked valid.
  std::uint8_t store(std::uint64_t line_address, std::uint8_t sectors);

  /// Data capacity in bytes after rounding to whole sets (0 when the carve-out takes everything).
  std::uint64_t capacity_bytes() const { return capacity_bytes_; }
  /// The tag array, or nullptr when the L1 has no capacity.
  const mem::CacheTags* tags() const { return tags_ ? &*tags_ : nullptr; }

 private:
  std::uint64_t capacity_bytes_ = 0;
  std::optional<mem::CacheTags> tags_;
};

}  // namespace warpsim::core
