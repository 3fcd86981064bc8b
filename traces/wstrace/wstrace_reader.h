// Reads the native .wstrace format. WstraceFile opens a file, checks its trailer and header, and
// reads any CTA by kernel and position through pread, so CTAs can be read in any order and from
// several threads at once (each thread with its own CtaReadBuffers). WstraceSource streams the
// file as a KernelSource, one CTA in memory at a time. Truncated or corrupt files, chunks or
// records throw InputError naming the file and the kernel and CTA; nothing is trusted before it
// is checked against the file size.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/kernel_source.h"
#include "traces/wstrace/wstrace.pb.h"
#include "traces/wstrace/zstd_chunk.h"

namespace warpsim::traces::wstrace {

/// Per-thread scratch for WstraceFile::read_cta.
struct CtaReadBuffers {
  std::string frame;
  ChunkDecompressor decompressor;
  CtaProto proto;
};

/// An open .wstrace file with random access to its CTAs.
class WstraceFile {
 public:
  /// Opens and checks `path`. Throws InputError when it is not a complete .wstrace file.
  explicit WstraceFile(std::string path);
  ~WstraceFile();
  WstraceFile(const WstraceFile&) = delete;
  WstraceFile& operator=(const WstraceFile&) = delete;

  const std::string& path() const { return path_; }
  /// The header (tool, version, kernels with their chunk index).
  const TraceHeader& header() const { return header_; }
  size_t kernel_count() const { return kernels_.size(); }
  /// The launch description of kernel `k`, with its opcode table.
  const KernelInfo& kernel(size_t k) const { return kernels_.at(k); }
  /// CTAs stored for kernel `k`.
  uint64_t cta_count(size_t k) const;
  /// Bytes of the file.
  uint64_t file_bytes() const { return file_bytes_; }

  /// Reads CTA `position` (stored order) of kernel `k` into `cta`. Safe to call from several
  /// threads with distinct `buffers`.
  void read_cta(size_t k, uint64_t position, CtaReadBuffers& buffers, CtaTrace& cta) const;

 private:
  void read_at(uint64_t offset, size_t size, std::string& out) const;

  std::string path_;
  int fd_ = -1;
  uint64_t file_bytes_ = 0;
  TraceHeader header_;
  std::vector<KernelInfo> kernels_;
};

/// Streams a .wstrace file kernel by kernel, CTA by CTA in stored order.
class WstraceSource final : public KernelSource {
 public:
  explicit WstraceSource(const std::string& path);

  bool next_kernel(KernelInfo& kernel) override;
  bool next_cta(CtaTrace& cta) override;
  std::string describe() const override { return file_.path(); }

  const WstraceFile& file() const { return file_; }

 private:
  WstraceFile file_;
  CtaReadBuffers buffers_;
  size_t next_kernel_ = 0;
  uint64_t next_cta_ = 0;
};

}  // namespace warpsim::traces::wstrace
