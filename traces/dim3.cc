#include "traces/dim3.h"

#include "arch/error.h"

namespace warpsim::traces {

Dim3 index_from_linear(uint64_t linear, Dim3 dims) {
  if (dims.volume() == 0 || linear >= dims.volume()) {
    throw InternalError("index_from_linear: position " + std::to_string(linear) + " outside dims " +
                        to_string(dims));
  }
  Dim3 index;
  index.x = static_cast<uint32_t>(linear % dims.x);
  linear /= dims.x;
  index.y = static_cast<uint32_t>(linear % dims.y);
  index.z = static_cast<uint32_t>(linear / dims.y);
  return index;
}

uint32_t warps_per_cta(Dim3 block, uint32_t warp_size) {
  if (warp_size == 0) return 0;
  return static_cast<uint32_t>((block.volume() + warp_size - 1) / warp_size);
}

std::string to_string(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace warpsim::traces
