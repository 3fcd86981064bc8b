#include "traces/in_memory_source.h"

#include <utility>

namespace warpsim::traces {

InMemoryKernelSource::InMemoryKernelSource(std::vector<KernelTrace> kernels, std::string name)
    : kernels_(std::move(kernels)), name_(std::move(name)) {}

bool InMemoryKernelSource::next_kernel(KernelInfo& kernel) {
  if (next_kernel_ >= kernels_.size()) {
    next_kernel_ = kernels_.size() + 1;  // next_cta() returns false from now on
    return false;
  }
  kernel = kernels_[next_kernel_].info;
  ++next_kernel_;
  next_cta_ = 0;
  return true;
}

bool InMemoryKernelSource::next_cta(CtaTrace& cta) {
  if (next_kernel_ == 0 || next_kernel_ > kernels_.size()) return false;
  const std::vector<CtaTrace>& ctas = kernels_[next_kernel_ - 1].ctas;
  if (next_cta_ >= ctas.size()) return false;
  copy_cta(ctas[next_cta_], cta);
  ++next_cta_;
  return true;
}

void InMemoryKernelSource::rewind() {
  next_kernel_ = 0;
  next_cta_ = 0;
}

}  // namespace warpsim::traces
