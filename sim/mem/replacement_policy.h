// Victim selection for a set-associative cache, as a replaceable policy registered by name.
//
// The tag array (cache_tags.h) fills invalid ways first (lowest index) and asks the policy for a
// victim only when every way of the set is valid. Built-ins:
//   "lru"    - true least-recently-used (a use stamp per way; ties cannot occur);
//   "random" - uniform over the ways from a seeded SplitMix64 generator, so a run is repeatable;
//   "random_lru" - uniform over the `candidates` least recently used ways (default half the set):
//              old lines go first, as under LRU, but in no fixed order among themselves, so a
//              cohort of lines written together leaves over a span of later misses rather than at
//              once (validate/HISTORY.md, "DRAM writes": with 8 of 16 it fits the H200's write-back
//              probe, but not the sharp capacity knee of its pointer chase; presets keep LRU);
//   "tree_plru" - tree pseudo-LRU, as hardware caches keep it: one bit per inner node of a binary
//              tree over the ways (a power of two), pointing to the half that goes next; a use
//              turns the bits on its path away from itself. It keeps part of a cyclic footprint
//              slightly over a set's capacity where LRU loses all of it (validate/HISTORY.md,
//              seventh round: it does not fit the H200's capacity knee; presets keep LRU);
//   "srrip"  - static re-reference interval prediction (Jaleel et al., ISCA 2010) with 2-bit
//              values: insert at 2, a hit sets 0, the victim is the lowest way at 3 (ageing every
//              way until one reaches 3).
// Each policy keeps its own per-way state, sized once at construction; no call allocates. Up to 64
// ways (victim_among takes a way mask).
//
// Left out: adaptive policies (DRRIP, set dueling) and bypass decisions.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "sim/mem/policy_registry.h"

namespace warpsim::mem {

/// The geometry a policy serves.
struct ReplacementConfig {
  std::uint32_t sets = 0;
  std::uint32_t ways = 0;
  std::uint64_t seed = 1;  ///< for "random" and "random_lru"
  std::uint32_t candidates = 0;  ///< for "random_lru": ways the victim is drawn from (0: half)
};

/// Keeps replacement state of every way and picks victims.
class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy();
  /// A lookup hit `way` of `set`.
  virtual void on_hit(std::uint32_t set, std::uint32_t way) = 0;
  /// A line was installed in `way` of `set`.
  virtual void on_fill(std::uint32_t set, std::uint32_t way) = 0;
  /// The way of `set` (all valid) to evict.
  virtual std::uint32_t victim(std::uint32_t set) = 0;
  /// The way among `candidates` (a nonempty mask of valid ways of `set`, bit w for way w) that the
  /// policy ranks first to go: the least recently used (also under "random_lru"), a uniform
  /// pick, the most distant re-reference. Changes no state (a tag array uses it to choose a
  /// dirty line to write back).
  virtual std::uint32_t victim_among(std::uint32_t set, std::uint64_t candidates) = 0;
};

/// The registry of replacement policies; built-ins: "lru", "random", "random_lru", "srrip",
/// "tree_plru".
PolicyRegistry<ReplacementPolicy, const ReplacementConfig&>& replacement_policy_registry();

/// Builds the policy called `name` (config field `field` for errors).
std::unique_ptr<ReplacementPolicy> make_replacement_policy(
    std::string_view name, const ReplacementConfig& config,
    std::string_view field = "l2.replacement");

}  // namespace warpsim::mem
