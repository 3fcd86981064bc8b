// Where a simulated kernel's warps spent their cycles, instruction by instruction: the simulated
// counterpart of Nsight Compute's source page. For every PC, the warp instructions issued there
// and the warp-cycles charged to each stall reason while a warp waited to issue it. ncu's PC
// sampler attributes a warp's state to the PC it is about to issue, and so does this: the cycles a
// warp stalls go to the instruction that ends the stall by issuing, its issue cycle to `selected`,
// and what follows a warp's last instruction (drain, the wait for its stores) to that instruction,
// as ncu charges it to EXIT. The per-PC cycles of each reason sum to the kernel's stall counters.
//
// Each SM records into its own table (SMs tick in parallel); the tables are summed when the kernel
// ends, so the result is the same for any thread count.
//
// Left out: ncu's sampling itself (every warp-cycle counts, not one cycle in 2^N), and the SASS
// text (a trace keeps opcodes, not operands; `warpsim replay --source` adds the listing's text).
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/observer.h"
#include "sim/core/stall_reason.h"
#include "traces/isa/opcode_table.h"

namespace warpsim::gpu {

/// One static instruction of a simulated kernel.
struct SourceRow {
  std::uint32_t pc = 0;
  traces::OpcodeId opcode = 0;
  std::uint64_t executions = 0;  ///< Warp instructions issued at this PC.
  /// Warp-cycles per stall reason (index: core::StallReason), `selected` = executions.
  std::array<std::uint64_t, core::kStallReasonCount> warp_cycles{};
};

/// One kernel's per-PC table, in PC order.
struct KernelSourceProfile {
  std::string name;
  std::shared_ptr<const traces::OpcodeTable> opcodes;
  std::vector<SourceRow> rows;

  /// Warp-cycles of every PC and reason together.
  std::uint64_t total_warp_cycles() const;
  /// The row of `pc`, or null.
  const SourceRow* find(std::uint32_t pc) const;
};

class SourceProfile {
 public:
  /// A profile of a GPU with `sms` SMs.
  explicit SourceProfile(int sms);
  ~SourceProfile();
  SourceProfile(const SourceProfile&) = delete;
  SourceProfile& operator=(const SourceProfile&) = delete;

  /// The observer to attach to SM `sm`.
  core::Observer& observer(int sm);
  /// Starts recording a kernel; the SMs' tables must be empty (end_kernel() emptied them).
  void start_kernel(const std::string& name, std::shared_ptr<const traces::OpcodeTable> opcodes);
  /// Sums the SMs' tables into the kernel's profile and empties them.
  void end_kernel();
  /// Every kernel ended so far, in order.
  const std::vector<KernelSourceProfile>& kernels() const { return kernels_; }

  /// Writes one CSV row per kernel and PC: kernel, pc (hex), opcode, executions, then the
  /// warp-cycles of each stall reason under ncu's names (stall_<reason>).
  void write_csv(std::ostream& os) const;

 private:
  class SmRecorder;
  std::vector<std::unique_ptr<SmRecorder>> recorders_;
  std::vector<KernelSourceProfile> kernels_;
};

}  // namespace warpsim::gpu
