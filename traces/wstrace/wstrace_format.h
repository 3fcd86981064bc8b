// Constants of the .wstrace file layout (see wstrace.proto): the leading magic, the trailer that
// locates the header, and little-endian u64 helpers for it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpsim::traces::wstrace {

inline constexpr size_t kMagicBytes = 8;
inline constexpr char kFileMagic[] = "WSTRACE1";
inline constexpr char kTrailerMagic[] = "WSTRIDX1";
/// u64 header offset, u64 header size, trailer magic.
inline constexpr size_t kTrailerBytes = 16 + kMagicBytes;

/// Stores `value` little-endian at `out`.
inline void put_u64(char* out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

/// Reads a little-endian u64 at `in`.
inline uint64_t get_u64(const char* in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= uint64_t{static_cast<unsigned char>(in[i])} << (8 * i);
  return value;
}

}  // namespace warpsim::traces::wstrace
