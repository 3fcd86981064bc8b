#include "traces/in_memory_source.h"

#include <utility>

#include "arch/error.h"

namespace warpsim::traces {

InMemoryKernelSource::InMemoryKernelSource(std::vector<KernelTrace> kernels, std::string name,
                                           CtaHandOver hand_over)
    : kernels_(std::move(kernels)), name_(std::move(name)), hand_over_(hand_over) {}

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
  std::vector<CtaTrace>& ctas = kernels_[next_kernel_ - 1].ctas;
  if (next_cta_ >= ctas.size()) return false;
  if (hand_over_ == CtaHandOver::kMove) {
    std::swap(ctas[next_cta_], cta);
    moved_ = true;
  } else {
    copy_cta(ctas[next_cta_], cta);
  }
  ++next_cta_;
  return true;
}

void InMemoryKernelSource::rewind() {
  if (moved_)
    throw InternalError(name_ + ": rewind after CTAs were handed over (CtaHandOver::kMove)");
  next_kernel_ = 0;
  next_cta_ = 0;
}

}  // namespace warpsim::traces
