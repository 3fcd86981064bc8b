// A KernelSource over kernels held in memory: the form the workload models and tests produce.
// It copies each CTA into the caller's buffer (reusing it) so that consumers see exactly the
// streaming behaviour of the file-backed sources.
#pragma once

#include <string>
#include <vector>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"
#include "traces/kernel_source.h"

namespace warpsim::traces {

/// A kernel and all its CTAs.
struct KernelTrace {
  KernelInfo info;
  std::vector<CtaTrace> ctas;
};

/// Streams a vector of kernels in order.
class InMemoryKernelSource final : public KernelSource {
 public:
  /// Takes the kernels; `name` is what describe() returns.
  explicit InMemoryKernelSource(std::vector<KernelTrace> kernels,
                                std::string name = "in-memory kernels");

  bool next_kernel(KernelInfo& kernel) override;
  bool next_cta(CtaTrace& cta) override;
  std::string describe() const override { return name_; }

  /// Number of kernels held.
  size_t kernel_count() const { return kernels_.size(); }

  /// Starts again from the first kernel.
  void rewind();

 private:
  std::vector<KernelTrace> kernels_;
  std::string name_;
  size_t next_kernel_ = 0;  // index of the kernel next_kernel() returns
  size_t next_cta_ = 0;     // index of the CTA next_cta() returns in kernel next_kernel_ - 1
};

}  // namespace warpsim::traces
