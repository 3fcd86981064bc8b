// A KernelSource over kernels held in memory: the form the workload models and tests produce.
// By default it copies each CTA into the caller's buffer (reusing it) so that consumers see
// exactly the streaming behaviour of the file-backed sources and the source can be rewound. A
// source built with CtaHandOver::kMove instead swaps each CTA into the caller's buffer: nothing is
// copied, and each CTA is delivered once (a benchmark that times the simulation, not the copy).
#pragma once

#include <string>
#include <vector>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"
#include "traces/kernel_source.h"

namespace warpsim::traces {

/// A kernel and all its CTAs.
/// How next_cta() delivers a CTA.
enum class CtaHandOver {
  kCopy,  ///< Copied: the source keeps it and can be rewound.
  kMove,  ///< Swapped into the caller's buffer (the source keeps the caller's old buffer).
};

struct KernelTrace {
  KernelInfo info;
  std::vector<CtaTrace> ctas;
};

/// Streams a vector of kernels in order.
class InMemoryKernelSource final : public KernelSource {
 public:
  /// Takes the kernels; `name` is what describe() returns.
  explicit InMemoryKernelSource(std::vector<KernelTrace> kernels,
                                std::string name = "in-memory kernels",
                                CtaHandOver hand_over = CtaHandOver::kCopy);

  bool next_kernel(KernelInfo& kernel) override;
  bool next_cta(CtaTrace& cta) override;
  std::string describe() const override { return name_; }

  /// Number of kernels held.
  size_t kernel_count() const { return kernels_.size(); }

  /// Starts again from the first kernel. Throws warpsim::InternalError when a CtaHandOver::kMove
  /// source has handed a CTA over (it no longer holds it).
  void rewind();

 private:
  std::vector<KernelTrace> kernels_;
  std::string name_;
  CtaHandOver hand_over_ = CtaHandOver::kCopy;
  bool moved_ = false;      // a CTA was swapped out
  size_t next_kernel_ = 0;  // index of the kernel next_kernel() returns
  size_t next_cta_ = 0;     // index of the CTA next_cta() returns in kernel next_kernel_ - 1
};

}  // namespace warpsim::traces
