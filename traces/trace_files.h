// Trace files by format: which format a path names (by extension, or forced by name), opening a
// file as a KernelSource, and writing any KernelSource in a format. The formats: the native
// .wstrace, and Accel-Sim traces (a kernelslist.g, or one .traceg / .traceg.xz to read; a
// kernelslist.g or a folder to write).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "traces/kernel_source.h"

namespace warpsim::traces {

/// A trace file format.
enum class TraceFormat : uint8_t {
  kWstrace,    ///< Native: .wstrace.
  kAccelSim,   ///< Accel-Sim: kernelslist.g with .traceg files.
  kAccelSimXz  ///< Accel-Sim with .traceg.xz files (when writing).
};

/// Parses a format name: "wstrace", "accelsim", "accelsim-xz"; nullopt otherwise.
std::optional<TraceFormat> parse_trace_format(std::string_view name);

/// The format a path names by its extension. Throws InputError naming the path when none fits.
TraceFormat trace_format_of(const std::string& path);

/// Opens `path` (format from its extension) as a streaming source.
std::unique_ptr<KernelSource> open_trace(const std::string& path);

/// Sizes of a written trace.
struct TraceWriteStats {
  uint64_t kernels = 0;
  uint64_t ctas = 0;
  uint64_t instructions = 0;
  uint64_t bytes = 0;  ///< Bytes written (all files).
};

/// Writes every remaining kernel of `source` to `path` in `format`.
TraceWriteStats write_trace(KernelSource& source, const std::string& path, TraceFormat format);

}  // namespace warpsim::traces
