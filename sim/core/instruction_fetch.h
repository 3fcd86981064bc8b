// The instruction fetch of one SM: a first-level instruction cache per sub-partition, a second
// level the SM's sub-partitions share, and a stream of lines from the memory system behind them.
// A warp may issue an instruction once the 128-byte line of code that holds it is in its
// sub-partition's first level; until then the warp stalls on no_instruction.
//
// A kernel starts with the first `launch_bytes` of its code (from the first PC a warp of the SM
// runs) in the second level and nothing else. When a warp of sub-partition s enters a line L (its
// next instruction lies on another line than its last one):
//  - lines L .. L + prefetch_lines missing from the second level are fetched from memory, the
//    first `miss_cycles` after now, each no sooner than `line_cycles` after the line fetched
//    before it (the SM's fetches share one stream), or `cold_line_cycles` for a line the SM never
//    fetched before (it comes from DRAM, the others from the L2);
//  - lines L and L + 1 missing from s's first level are copied there from the second level,
//    each `l1_cycles` after now or after it reaches the second level, whichever is later;
//  - the warp may issue from L once L is in s's first level.
// Both levels give up the line that entered first of a set (`ways` ways).
//
// Measured on an H100 SXM (validate/reference/h200/icache_h100.tsv, and icache_ncu_h100.tsv under
// Nsight Compute's --cache-control all, the reference's condition): code a warp ran before
// issues at its own rate within 32 KB, at about 16 cycles a line within 128 KB (the second level
// streaming to the first) and at about 40 beyond (from the L2); code never run comes as fast as
// from the second level up to 64 KB, and beyond that at about 115 cycles a line.
//
// Left out: the instruction lines' traffic in the L2 and DRAM (the fetches are timed, not sent),
// other SMs' fetches of the same lines (each SM counts a line it never fetched as cold), branch
// prediction, and the constants the second level holds too on NVIDIA GPUs.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/clock_domain.h"

namespace warpsim::core {

/// Sizes and timing of the instruction fetch (all zero sizes: fetch not modelled).
struct InstructionFetchConfig {
  std::uint32_t l0_bytes = 0;          ///< First level, per sub-partition; 0: not modelled.
  std::uint32_t l1_bytes = 0;          ///< Second level, per SM.
  std::uint32_t ways = 8;              ///< Associativity of both levels.
  std::uint32_t l1_cycles = 16;        ///< Second level to first, per line.
  std::uint32_t miss_cycles = 400;     ///< Memory to the second level, the first line of a stream.
  std::uint32_t line_cycles = 40;      ///< Memory stream: cycles between lines fetched before.
  std::uint32_t cold_line_cycles = 0;  ///< …between lines never fetched (0: as line_cycles).
  std::uint32_t launch_bytes = 0;      ///< Code in the second level when a kernel starts.
  std::uint32_t prefetch_lines = 16;   ///< Lines ahead of the warp fetched into the second level.
};

/// Throws warpsim::InputError naming "sm.instruction_fetch.<field>" for a bad configuration.
void validate(const InstructionFetchConfig& config);

/// The instruction caches of one SM.
class InstructionFetch {
 public:
  static constexpr std::uint32_t kLineBytes = 128;

  /// An SM of `sub_partitions` sub-partitions; `config` must be valid. By default: not modelled.
  explicit InstructionFetch(const InstructionFetchConfig& config = {}, int sub_partitions = 1);

  /// True when the configuration models the fetch.
  bool enabled() const { return !l1_.empty(); }

  /// A warp of sub-partition `smsp` enters the line holding `pc` at cycle `now`: brings it and the
  /// lines after it on, and returns the cycle from which the warp may issue from it.
  engine::Cycle enter(int smsp, std::uint64_t pc, engine::Cycle now);

 private:
  struct Entry {
    std::uint64_t line = ~std::uint64_t{0};  // none
    engine::Cycle ready = 0;                 // cycle the line is in the level
    std::uint64_t stamp = 0;                 // entry order (least recent goes first)
  };
  // One set-associative level.
  class Level {
   public:
    Level() = default;
    Level(std::uint32_t bytes, std::uint32_t ways);
    bool empty() const { return entries_.empty(); }
    const Entry* find(std::uint64_t line) const;
    void insert(std::uint64_t line, engine::Cycle ready);

   private:
    std::uint32_t sets_ = 0;
    std::uint32_t ways_ = 0;
    std::uint64_t stamp_ = 0;
    std::vector<Entry> entries_;
  };

  // The cycle `line` reaches the second level, fetching it from memory when missing.
  engine::Cycle second_level(std::uint64_t line, engine::Cycle now);
  // Whether the SM fetched `line` before (marking it fetched).
  bool fetched_before(std::uint64_t line);

  InstructionFetchConfig config_;
  std::vector<Level> l0_;  // per sub-partition
  Level l1_;
  engine::Cycle stream_free_ = 0;  // when the memory stream's last line arrives
  bool started_ = false;           // the launch's code is in the second level
  std::uint64_t base_line_ = 0;    // the kernel's first line (that of the first PC entered)
  std::vector<std::uint64_t> fetched_;  // bit per line from base_line_: fetched before
};

}  // namespace warpsim::core
