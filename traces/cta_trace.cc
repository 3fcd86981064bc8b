#include "traces/cta_trace.h"

#include <string>

#include "arch/error.h"

namespace warpsim::traces {

void CtaTrace::reset(size_t num_warps) {
  cluster.reset();
  warps.resize(num_warps);
  for (size_t i = 0; i < num_warps; ++i) {
    warps[i].clear();
    warps[i].warp_id = static_cast<uint32_t>(i);
  }
}

uint64_t CtaTrace::instruction_count() const {
  uint64_t count = 0;
  for (const WarpTrace& warp : warps) count += warp.instructions.size();
  return count;
}

size_t CtaTrace::memory_bytes() const {
  size_t bytes = warps.capacity() * sizeof(WarpTrace);
  for (const WarpTrace& warp : warps) bytes += warp.memory_bytes();
  return bytes;
}

void copy_cta(const CtaTrace& from, CtaTrace& to) {
  to.index = from.index;
  to.cluster = from.cluster;
  to.warps.resize(from.warps.size());
  for (size_t i = 0; i < from.warps.size(); ++i) {
    const WarpTrace& src = from.warps[i];
    WarpTrace& dst = to.warps[i];
    if (src.more) {
      throw InternalError("copy_cta: warp " + std::to_string(src.warp_id) +
                          " is streamed; a copy cannot share the rest of its stream");
    }
    dst.more.reset();
    dst.warp_id = src.warp_id;
    dst.instructions.assign(src.instructions.begin(), src.instructions.end());
    dst.addresses.assign(src.addresses.begin(), src.addresses.end());
    dst.extras.assign(src.extras.begin(), src.extras.end());
    dst.values.assign(src.values.begin(), src.values.end());
    dst.line_numbers.assign(src.line_numbers.begin(), src.line_numbers.end());
  }
}

}  // namespace warpsim::traces
