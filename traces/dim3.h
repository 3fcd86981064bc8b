// Three-dimensional grid, block and cluster sizes and indices, and the linear CTA order that
// Accel-Sim traces use (z·gx·gy + y·gx + x, x fastest). Plain value types; no allocation.
#pragma once

#include <cstdint>
#include <string>

namespace warpsim::traces {

/// A (x, y, z) size or index, as CUDA's dim3.
struct Dim3 {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;

  /// x · y · z.
  constexpr uint64_t volume() const { return uint64_t{x} * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

/// Linear position of `index` in `dims`: (z · dims.y + y) · dims.x + x.
constexpr uint64_t linear_index(Dim3 index, Dim3 dims) {
  return (uint64_t{index.z} * dims.y + index.y) * dims.x + index.x;
}

/// True when every component of `index` is below the matching one of `dims`.
constexpr bool contains(Dim3 dims, Dim3 index) {
  return index.x < dims.x && index.y < dims.y && index.z < dims.z;
}

/// The index whose linear position in `dims` is `linear` (inverse of linear_index). Throws
/// InternalError when a component of `dims` is zero or `linear` ≥ dims.volume().
Dim3 index_from_linear(uint64_t linear, Dim3 dims);

/// Warps (or wavefronts) needed for a block: ceil(volume / warp_size).
uint32_t warps_per_cta(Dim3 block, uint32_t warp_size);

/// "(x,y,z)".
std::string to_string(Dim3 d);

}  // namespace warpsim::traces
