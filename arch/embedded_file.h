// A text file compiled into the binary (see cmake/embed.cmake): the architecture presets travel
// inside `warpsim`, so the command works from any directory without an install step.
#pragma once

#include <cstddef>

namespace warpsim {

/// One embedded file; arrays of these end with an entry whose `path` is nullptr.
struct EmbeddedFile {
  const char* path;  ///< Relative to the embedding root, e.g. "nvidia/h200.textproto".
  const char* data;  ///< Contents, NUL-terminated.
  std::size_t size;  ///< Contents length in bytes, without the terminating NUL.
};

}  // namespace warpsim
