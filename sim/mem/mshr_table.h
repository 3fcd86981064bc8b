// Miss status holding registers: the fetches a cache has in flight, one entry per line, each with
// the requests (targets) waiting on it.
//
// An entry records which sectors of its line were requested from the next level and which have
// arrived. A later miss to the same line merges into the entry as another target (fetching only
// sectors not already requested); a target is released as soon as every sector it needs has
// arrived, and the entry is freed when it has no targets and nothing left in flight. The table
// and every entry's target list have fixed capacities from the config; a cache whose table or
// entry is full stops accepting requests (back-pressure). Storage is allocated once.
//
// Left out: per-sector MSHRs and MSHR entries reserved per requester.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/mem/mem_request.h"

namespace warpsim::mem {

/// Capacities of an MSHR table.
struct MshrConfig {
  std::uint32_t entries = 64;           ///< lines in flight at once
  std::uint32_t targets_per_entry = 8;  ///< requests merged on one line
};

/// The table. Not thread-safe; owned by one component.
class MshrTable {
 public:
  /// An index into the table; kNone when absent.
  using Index = std::uint32_t;
  static constexpr Index kNone = UINT32_MAX;

  /// Throws warpsim::InputError naming `<field>.mshr_entries` or `<field>.mshr_targets` on zero.
  MshrTable(const MshrConfig& config, const std::string& field);

  /// The entry of `line_address`, or kNone.
  Index find(std::uint64_t line_address) const;
  /// Sectors of the entry requested and not yet arrived (0 for kNone).
  std::uint8_t in_flight(Index index) const;
  /// True when a new entry can be allocated.
  bool can_allocate() const { return in_use_ < entries_.size(); }
  /// True when entry `index` (kNone: a new one) can take one more target.
  bool can_add_target(Index index) const;
  /// Allocates the entry of `line_address` (which has none); requires can_allocate().
  Index allocate(std::uint64_t line_address);
  /// Records that `sectors` of the entry were requested from the next level.
  void mark_requested(Index index, std::uint8_t sectors);
  /// Adds `request` as a target that needs `needed` sectors; requires can_add_target(index).
  void add_target(Index index, const MemRequest& request, std::uint8_t needed);

  /// Records the arrival of `sectors` of `line_address` and calls `ready(request)` for every
  /// target whose sectors have now all arrived, in the order they were added. Returns false when
  /// the line has no entry (the fill is not for this table).
  template <class Ready>
  bool fill(std::uint64_t line_address, std::uint8_t sectors, Ready&& ready) {
    const Index index = find(line_address);
    if (index == kNone) return false;
    Entry& entry = entries_[index];
    entry.arrived |= sectors;
    Target* targets = &targets_[std::size_t{index} * targets_per_entry_];
    std::uint32_t kept = 0;
    for (std::uint32_t t = 0; t < entry.targets; ++t) {
      if ((targets[t].needed & ~entry.arrived) == 0) {
        ready(targets[t].request);
      } else {
        targets[kept++] = targets[t];
      }
    }
    entry.targets = kept;
    release_if_done(index);
    return true;
  }

  /// Entries in use.
  std::uint32_t in_use() const { return in_use_; }
  /// Total capacity.
  std::uint32_t capacity() const { return static_cast<std::uint32_t>(entries_.size()); }

 private:
  struct Entry {
    std::uint64_t line_address = 0;
    bool valid = false;
    std::uint8_t requested = 0;
    std::uint8_t arrived = 0;
    std::uint32_t targets = 0;
  };
  struct Target {
    MemRequest request{};
    std::uint8_t needed = 0;
  };

  void release_if_done(Index index);
  std::size_t home_slot(std::uint64_t line_address) const {
    return static_cast<std::size_t>((line_address * 0x9E3779B97F4A7C15ull) >> hash_shift_);
  }
  void unlink(std::uint64_t line_address);

  std::uint32_t targets_per_entry_;
  std::uint32_t in_use_ = 0;
  std::vector<Entry> entries_;
  std::vector<Target> targets_;
  // Index of the valid entries by line: open addressing with linear probing over a power-of-two
  // table at most half full (kNone: empty slot); free entries are a stack.
  std::vector<Index> slots_;
  int hash_shift_ = 63;
  std::vector<Index> free_;
};

}  // namespace warpsim::mem
