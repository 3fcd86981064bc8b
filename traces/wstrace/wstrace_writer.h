// Writes the native .wstrace format (layout in wstrace.proto): CTAs are encoded and compressed
// one by one as they arrive and only the chunk index stays in memory, so writing is bounded by one
// CTA plus 20 bytes per CTA of index, whatever the trace size. The header (kernels, launch
// configs, ISA, opcode tables, writer tool and version) is written last, with the index, when the
// writer is finished; a file whose writer did not finish has no trailer and readers reject it.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"
#include "traces/kernel_source.h"
#include "traces/wstrace/wstrace.pb.h"
#include "traces/wstrace/zstd_chunk.h"

namespace warpsim::traces::wstrace {

/// The version string written into headers.
inline constexpr const char* kWriterVersion = "1";

/// Sizes of a written trace.
struct WriteStats {
  uint64_t kernels = 0;
  uint64_t ctas = 0;
  uint64_t instructions = 0;
  uint64_t file_bytes = 0;          ///< Bytes of the file.
  uint64_t uncompressed_bytes = 0;  ///< Bytes of the encoded CTA records before zstd.
};

/// Streams kernels and CTAs into a .wstrace file.
class WstraceWriter {
 public:
  /// Creates `path` (throws InputError when it cannot be opened); zstd `level`.
  explicit WstraceWriter(const std::string& path, int level = 3);

  /// Starts a kernel; its CTAs follow through add_cta().
  void begin_kernel(const KernelInfo& kernel);
  /// Appends a CTA of the current kernel.
  void add_cta(const CtaTrace& cta);
  /// Writes the header, the index and the trailer, and closes the file.
  WriteStats finish();

 private:
  void write(const char* data, size_t size);

  std::string path_;
  std::ofstream out_;
  uint64_t offset_ = 0;
  ChunkCompressor compressor_;
  CtaProto cta_proto_;
  TraceHeader header_;
  KernelProto* current_ = nullptr;
  std::map<const OpcodeTable*, uint32_t> table_index_;
  std::vector<std::shared_ptr<const OpcodeTable>> tables_;
  WriteStats stats_;
  bool finished_ = false;
};

/// Writes every remaining kernel of `source` to `path`.
WriteStats write_wstrace(KernelSource& source, const std::string& path, int level = 3);

}  // namespace warpsim::traces::wstrace
