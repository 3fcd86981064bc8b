// A KernelSource that passes another source through unchanged and remembers the opcode tables of
// the kernels it streamed, so that after a replay the command can warn about opcodes the target
// ISA lacks ("trace opcodes for sm_90 that sm_80 lacks (timed by their op class): HGMMA, …").
// Replay on any preset is allowed: a missing opcode is timed by its op class, never rejected.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "traces/kernel_source.h"

namespace warpsim::traces {

/// Forwards `inner` and collects its kernels' opcode tables.
class ReplaySource final : public KernelSource {
 public:
  explicit ReplaySource(std::unique_ptr<KernelSource> inner) : inner_(std::move(inner)) {}

  bool next_kernel(KernelInfo& kernel) override;
  bool next_cta(CtaTrace& cta) override { return inner_->next_cta(cta); }
  void stream_warps(uint32_t instructions) override { inner_->stream_warps(instructions); }
  std::string describe() const override { return inner_->describe(); }

  /// Kernels streamed so far.
  uint64_t kernels() const { return kernels_; }

  /// One warning per distinct opcode table with opcodes `target` lacks, and one listing
  /// mnemonics no ISA table knows; empty when there is nothing to say.
  std::vector<std::string> warnings(Isa target) const;

 private:
  std::unique_ptr<KernelSource> inner_;
  std::vector<std::shared_ptr<const OpcodeTable>> tables_;
  uint64_t kernels_ = 0;
};

}  // namespace warpsim::traces
