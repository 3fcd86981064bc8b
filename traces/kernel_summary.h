// A summary of one kernel's trace, as `warpsim trace info` prints it: CTAs, warps, warp and
// thread instructions, warp instructions per op class, memory instructions per space and access
// kind, bytes requested, and the memory footprint in distinct 32-byte sectors per space (and
// over all spaces that address device memory: global, generic and the global side of async
// copies). The footprint keeps one 8-byte entry per distinct sector; TMA copies count their
// bytes but not their sectors (their addresses are tensor coordinates, not lane addresses).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"
#include "traces/kernel_source.h"

namespace warpsim::traces {

/// Number of arch::OpClass values.
inline constexpr int kOpClassCount = arch::OpClass_ARRAYSIZE;
/// Number of MemSpace values.
inline constexpr int kMemSpaceCount = static_cast<int>(MemSpace::kTensorMemory) + 1;
/// Number of AccessKind values.
inline constexpr int kAccessKindCount = static_cast<int>(AccessKind::kPrefetch) + 1;
/// Bytes per sector.
inline constexpr uint64_t kSectorBytes = 32;

/// Counts over one kernel.
struct KernelSummary {
  uint64_t ctas = 0;                               ///< CTAs seen.
  uint64_t warps = 0;                              ///< Warps seen (including empty ones).
  uint64_t warp_instructions = 0;                  ///< Warp instructions.
  uint64_t thread_instructions = 0;                ///< Sum of active lanes over warp instructions.
  std::array<uint64_t, kOpClassCount> by_class{};  ///< Warp instructions per arch::OpClass.
  /// Memory warp instructions per [MemSpace][AccessKind].
  std::array<std::array<uint64_t, kAccessKindCount>, kMemSpaceCount> memory{};
  uint64_t bytes_requested = 0;                    ///< Σ active lanes × width, plus TMA bytes.
  std::array<uint64_t, kMemSpaceCount> sectors{};  ///< Distinct 32 B sectors per space.
  uint64_t device_sectors = 0;  ///< Distinct sectors over global, generic, global→shared.
  std::vector<std::string> unknown_opcodes;  ///< Mnemonics without an ISA-table entry, sorted.
};

/// Accumulates a KernelSummary CTA by CTA.
class KernelSummarizer {
 public:
  /// Summarises CTAs of `kernel` (its opcode table must outlive the summarizer).
  explicit KernelSummarizer(const KernelInfo& kernel);

  /// Adds one CTA.
  void add(const CtaTrace& cta);

  /// The summary of the CTAs added so far.
  KernelSummary finish();

 private:
  /// Distinct sector numbers: appended, then sorted and deduplicated when the buffer doubles.
  class SectorSet {
   public:
    void insert(uint64_t sector);
    uint64_t count();

   private:
    void compact();
    std::vector<uint64_t> sectors_;
    size_t compacted_size_ = 0;
  };

  void add_footprint(MemSpace space, uint64_t address, uint32_t width);

  const OpcodeTable* opcodes_;
  std::vector<const OpcodeInfo*> infos_;  // per opcode id, refreshed as the table grows
  std::vector<uint8_t> used_;             // per opcode id: seen in this kernel
  KernelSummary summary_;
  std::array<SectorSet, kMemSpaceCount> spaces_;
  SectorSet device_;
};

/// Reads the remaining CTAs of the current kernel of `source` and summarises them.
KernelSummary summarize_kernel(const KernelInfo& kernel, KernelSource& source);

}  // namespace warpsim::traces
