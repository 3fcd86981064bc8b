// Nsight Compute report files (`.ncu-rep`, and `.ncu-repz`: the same inside zstd): the
// documented framing ("NVR\0", then little-endian u32 length-prefixed protobuf messages) decoded
// from the protobuf wire format by field number, with unknown fields skipped (no NVIDIA .proto
// files are compiled in). Extracts per profiled launch its names, grid and block, context and
// stream, every metric with its value at full precision and its instances (per-PC values keyed
// by the absolute PC, per-opcode values keyed by the opcode name), and the kernel's cubin.
//
// Left out: sections, rule results, session and process details, PM sampling timelines, and the
// SASS text (a report holds the cubin, not its disassembly).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/dim3.h"

namespace warpsim::traces::ncu {

/// One value of a report: ncu stores strings, floats, doubles and unsigned integers.
struct ReportValue {
  enum class Kind : uint8_t { kNone, kString, kFloat, kDouble, kUint32, kUint64 };
  Kind kind = Kind::kNone;
  std::string text;      ///< kString.
  double number = 0;     ///< kFloat and kDouble.
  uint64_t integer = 0;  ///< kUint32 and kUint64.

  /// The value as a double (integers converted), nullopt for strings and no value.
  std::optional<double> as_double() const;
  /// The value as text: the string, or the number printed at full precision.
  std::string to_string() const;
};

/// One instance of an instanced metric: a key (the PC, an opcode name, …) and its value.
struct MetricInstance {
  ReportValue key;
  ReportValue value;
};

/// One metric of a profiled launch.
struct ReportMetric {
  ReportValue value;                      ///< The aggregate.
  std::vector<MetricInstance> instances;  ///< Empty for non-instanced metrics.
};

/// One profiled kernel launch.
struct ReportKernel {
  uint64_t id = 0;  ///< ncu's kernel ID within the report (launch order).
  std::string mangled_name;
  std::string function_name;
  std::string demangled_name;  ///< With parameter list, as the CSV's "Kernel Name".
  Dim3 grid{1, 1, 1};
  Dim3 block{1, 1, 1};
  uint64_t context_id = 0;
  uint64_t stream_id = 0;
  uint32_t sm_version = 0;  ///< Of the cubin's source data, e.g. 90 (0 if unknown).
  std::map<std::string, ReportMetric, std::less<>> metrics;  ///< By ncu metric name.
  std::shared_ptr<const std::string> cubin;  ///< The embedded binary; null when absent.

  /// The metric `name`, or nullptr.
  const ReportMetric* metric(std::string_view name) const;
  /// The numeric aggregate of `name`, or nullopt when absent or a string.
  std::optional<double> number(std::string_view name) const;
};

/// A decoded report.
struct Report {
  std::string source;    ///< File name for messages.
  uint32_t version = 0;  ///< The file header's version (7 for current releases).
  std::vector<ReportKernel> kernels;
};

/// Decodes the bytes of a `.ncu-rep` (or, detected by the zstd magic, a `.ncu-repz`). Throws
/// InputError naming `source`, the byte offset and what was expected on malformed input.
Report parse_ncu_report(std::string_view bytes, const std::string& source);

/// Reads and decodes the report at `path`; InputError when it cannot be read.
Report load_ncu_report(const std::string& path);

/// A demangled name as ncu's CSV pages print it: template literal casts dropped
/// ("w_divergent<(int)2>" → "w_divergent<2>").
std::string ncu_display_name(std::string_view demangled);

/// True when `bytes` start like a report ("NVR\0" or the zstd magic).
bool looks_like_ncu_report(std::string_view bytes);

}  // namespace warpsim::traces::ncu
