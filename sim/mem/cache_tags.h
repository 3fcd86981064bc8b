// A sectored, set-associative tag array: 128-byte lines of four 32-byte sectors, each with a valid
// and a dirty bit, and a replaceable victim policy (replacement_policy.h). Shared by the L2 slice
// and, later, the L1.
//
// Tag state changes at lookup time: an access that misses allocates the line at once (evicting a
// victim and reporting it with its dirty sectors) and marks the requested sectors valid, meaning
// "present or being fetched". The owner tracks fetches in flight (MSHRs), so the tag contents are
// a pure function of the sequence of accesses, whatever the memory timing. The set of a line is
// its line number (or `set_line` of its address) divided by `index_divisor`, modulo the number of
// sets. Invalid ways (lowest index first) fill before the policy is asked for a victim. Storage is
// sized once; no access allocates.
//
// A dirty-line limit (`max_dirty_ways`) bounds the dirty lines of a set: an access that makes a
// line dirty in a set already holding that many writes back the set's other dirty line that the
// policy ranks first to go (the least recently used under LRU) and keeps it, clean. On the H200 a
// stream of writes into an L2 full of clean lines starts writing back at about 28 of its 60 MB
// (validate/reference/h200/dirty_l2.tsv), where plain LRU would keep all 60.
//
// A victim choice that spares dirty lines (`dirty_victim_skip` = p): the policy's picks are taken
// in its order (victim_among over the ways not yet passed); a clean pick is evicted, a dirty one
// is passed over with chance p, from a stream seeded by `seed`. On the H200 a read stream evicts
// a 16 MB block of written lines much later than one of lines read once or twice
// (validate/reference/h200/l2_reref.tsv), where LRU evicts both at the same age. No preset sets
// it: streaming kernels then keep more dirty lines than the H200 does (validate/HISTORY.md).
//
// Left out: data, ECC, the real parts' set-index hashes (an XOR-folded index for power-of-two set
// counts and a rotated one stand in), way prediction, and partial tags.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/mem/mem_request.h"
#include "sim/mem/replacement_policy.h"
#include "sim/mem/split_mix64.h"

namespace warpsim::mem {

/// Capacity, associativity and victim policy of a tag array.
struct CacheTagsConfig {
  std::uint64_t size_bytes = 0;     ///< data capacity; a multiple of ways × 128
  std::uint32_t ways = 0;           ///< associativity, at least 1
  std::string replacement = "lru";  ///< registered ReplacementPolicy name
  std::uint64_t seed = 1;           ///< seed for randomized policies
  std::uint32_t replacement_candidates = 0;  ///< "random_lru": ways a victim is drawn from
  /// The set of a line is (line number / index_divisor) mod sets: an array that holds one of n
  /// interleaved shares of the address space (an L2 slice) sets n, so that the bits choosing
  /// the share do not also choose the set.
  std::uint32_t index_divisor = 1;
  /// Dirty lines a set may hold; 0: no limit.
  std::uint32_t max_dirty_ways = 0;
  /// Chance that a dirty victim is passed over for the policy's next pick (0: never).
  double dirty_victim_skip = 0.0;
  /// The set is the XOR of the line number's log2(sets)-bit fields (sets a power of two), so
  /// that lines any power-of-two stride apart spread over all sets (the H200's L1).
  bool xor_index = false;
  /// The set is (q mod sets + h(q / sets)) mod sets for q = line number / index_divisor, h a
  /// 64-bit mix: each aligned run of `sets` consecutive q still visits every set once, and the
  /// runs are rotated apart, so lines a stride apart that shares factors with sets x
  /// index_divisor (256 lines on the H200's 96 slices x 160 sets) do not pile onto a few sets.
  bool rotated_index = false;
  /// When set, the line number that the set index divides instead of line_address / 128 (an L2
  /// slice of die-interleaved homes indexes by the line's rank among its die's lines).
  std::function<std::uint64_t(std::uint64_t line_address)> set_line = {};
};

/// One valid line: its address and sector bits.
struct LineState {
  std::uint64_t line_address = 0;
  std::uint8_t valid_mask = 0;
  std::uint8_t dirty_mask = 0;
  friend bool operator==(const LineState&, const LineState&) = default;
};

/// The outcome of one access.
struct TagAccess {
  bool line_hit = false;      ///< the line was present
  std::uint8_t hit_mask = 0;  ///< requested sectors that were already valid
  bool evicted = false;       ///< a valid line was evicted to make room
  LineState victim{};         ///< the evicted line (when `evicted`)
  bool cleaned = false;       ///< another line was written back to respect max_dirty_ways
  LineState written_back{};   ///< that line with the dirty sectors it had (when `cleaned`)
};

/// The tag array. Not thread-safe; owned by one component.
class CacheTags {
 public:
  /// Throws warpsim::InputError naming `<field>.size_bytes`, `<field>.ways` or
  /// `<field>.replacement` when the geometry or policy is invalid.
  CacheTags(const CacheTagsConfig& config, const std::string& field);
  ~CacheTags();
  CacheTags(CacheTags&&) noexcept;
  CacheTags& operator=(CacheTags&&) noexcept;

  /// Looks up `line_address`, allocating it on a miss, marks `sector_mask` valid and
  /// `dirty_mask` dirty, and updates the replacement state.
  TagAccess access(std::uint64_t line_address, std::uint8_t sector_mask, std::uint8_t dirty_mask);

  /// The line's state, or a LineState with valid_mask 0 when absent. Does not touch replacement.
  LineState probe(std::uint64_t line_address) const;

  /// Every valid line, ordered by set then way.
  std::vector<LineState> contents() const;

  /// Drops `line_address` without write-back; returns its state (valid_mask 0 when absent).
  LineState invalidate(std::uint64_t line_address);

  /// Marks `sectors` of `line_address` clean (its owner writes them back; the line stays valid);
  /// returns its valid sectors and those of `sectors` that were dirty (valid_mask 0 when absent).
  /// Does not touch replacement.
  LineState clean(std::uint64_t line_address, std::uint8_t sectors = kAllSectors);

  /// Marks `sectors` of a present `line_address` valid (a read brought them in beside a
  /// write-back); does nothing when the line is absent. Does not touch replacement.
  void validate(std::uint64_t line_address, std::uint8_t sectors);

  /// Drops every line without write-back.
  void invalidate_all();

  /// Number of sets.
  std::uint32_t sets() const { return sets_; }
  /// Associativity.
  std::uint32_t ways() const { return ways_; }
  /// Dirty lines a set may hold (0: no limit).
  std::uint32_t max_dirty_ways() const { return max_dirty_; }
  /// The set that `line_address` maps to.
  std::uint32_t set_of(std::uint64_t line_address) const {
    const std::uint64_t line = set_line_ ? set_line_(line_address) : line_address >> 7;
    const std::uint64_t q = line / divisor_;
    if (xor_bits_ != 0) return xor_fold(q);
    if (rotated_) return static_cast<std::uint32_t>((q % sets_ + rotation(q / sets_)) % sets_);
    return static_cast<std::uint32_t>(q % sets_);
  }

 private:
  struct Way {
    std::uint64_t line_address = 0;
    std::uint8_t valid_mask = 0;  // 0: the way is empty
    std::uint8_t dirty_mask = 0;
  };

  // The XOR of `line`'s xor_bits_-bit fields.
  std::uint32_t xor_fold(std::uint64_t line) const {
    std::uint64_t set = 0;
    for (; line != 0; line >>= xor_bits_) set ^= line;
    return static_cast<std::uint32_t>(set & (sets_ - 1));
  }

  // The rotation of the run of sets that `run` numbers (rotated_index).
  std::uint64_t rotation(std::uint64_t run) const {
    run ^= run >> 31;
    run *= 0x7fb5d329728ea185ULL;
    run ^= run >> 27;
    run *= 0x81dadef4bc2dd44dULL;
    run ^= run >> 33;
    return run % sets_;
  }

  std::uint32_t sets_ = 0;
  bool rotated_ = false;
  std::uint32_t xor_bits_ = 0;  // log2(sets_) with an XOR-folded index, else 0
  std::uint32_t ways_ = 0;
  std::uint64_t divisor_ = 1;
  std::uint32_t max_dirty_ = 0;
  std::uint64_t skip_threshold_ = 0;  // dirty_victim_skip x 2^64; 0: never skip
  SplitMix64 skip_stream_;            // the skip draws
  std::function<std::uint64_t(std::uint64_t)> set_line_;
  std::vector<Way> ways_storage_;
  std::unique_ptr<ReplacementPolicy> policy_;

  // The valid way holding `line_address`, or nullptr.
  Way* find_way(std::uint64_t line_address);
  // Writes back a dirty line of `set` other than `keep` when the set holds more than the limit.
  void limit_dirty(std::uint32_t set, Way* base, std::uint32_t keep, TagAccess& result);
  std::uint32_t pick_victim(std::uint32_t set, const Way* base);
};

}  // namespace warpsim::mem
