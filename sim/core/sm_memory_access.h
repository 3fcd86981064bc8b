// The lanes of one warp memory access as the SM memory pipeline's paths take it: the active mask,
// the 32 lane addresses (or none, when the trace recorded none) and the bytes each lane moves.
// A view: it owns nothing. Wave64 accesses are left out (only the first 32 lanes).
#pragma once

#include <cstdint>

namespace warpsim::core {

/// The lanes of one warp access: active mask, 32 lane addresses (nullptr when the trace recorded
/// none) and bytes per lane.
struct WarpAccess {
  std::uint32_t mask = 0;
  const std::uint64_t* addresses = nullptr;  ///< kWarpLanes entries, or nullptr.
  int width_bytes = 4;
  bool uniform = false;  ///< The trace recorded one address for every active lane.
};

}  // namespace warpsim::core
