// The interface between trace sources (workload models, native trace files, Accel-Sim traces,
// ncu replays) and the simulator. A source streams: kernels in launch order, and within the
// current kernel its CTAs one at a time into a caller-owned CtaTrace buffer, so memory stays
// bounded by the CTAs in flight whatever the trace size, and a steady-state refill allocates
// nothing once the buffer has grown.
//
// Thread safety: a KernelSource is used by one thread at a time (the CTA dispatcher); its methods
// are not reentrant. The CtaTrace buffers it fills belong to the caller and may be handed to
// other threads afterwards. Sources intern new opcode mnemonics only inside next_kernel and
// next_cta, so the kernel's OpcodeTable may be read concurrently between those calls.
#pragma once

#include <string>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"

namespace warpsim::traces {

/// A stream of kernels, each a stream of CTAs.
class KernelSource {
 public:
  virtual ~KernelSource() = default;

  /// Advances to the next kernel and fills `kernel` with its launch description; false when
  /// there are no more kernels. CTAs of the previous kernel that were not read are skipped.
  /// Throws InputError on malformed input.
  virtual bool next_kernel(KernelInfo& kernel) = 0;

  /// Fills `cta` with the next CTA of the current kernel, reusing its buffers; false when the
  /// kernel has no more CTAs (or before the first next_kernel). Each CTA of the grid comes
  /// exactly once, in the source's order (Accel-Sim's: linear index z·gx·gy + y·gx + x).
  /// Throws InputError on malformed input.
  virtual bool next_cta(CtaTrace& cta) = 0;

  /// Asks the source to hand out each warp in pieces from now on: next_cta fills about
  /// `instructions` of each warp's instructions and sets WarpTrace::more for the rest, so that a
  /// resident CTA holds a bounded part of its warps' streams. Sources that hold their traces
  /// whole (files, replays) ignore it; the default does.
  virtual void stream_warps(uint32_t instructions) { (void)instructions; }

  /// Where the kernels come from, for messages ("kernelslist.g", "workload gemm", …).
  virtual std::string describe() const = 0;
};

}  // namespace warpsim::traces
