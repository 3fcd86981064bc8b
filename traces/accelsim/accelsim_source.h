// A KernelSource over an Accel-Sim trace: a kernelslist.g (MemcpyHtoD lines and kernel entries
// in launch order; other lines ignored) or a single .traceg / .traceg.xz file. Kernel files are
// opened one at a time and read CTA by CTA; .xz files are decompressed on the fly with
// Boost.Iostreams (liblzma), so memory stays bounded by one CTA. Opcodes are interned in one
// table per ISA shared by the trace's kernels. Not supported: the v6 .tracez container (an
// entry naming one throws InputError saying so).
#pragma once

#include <istream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "traces/accelsim/traceg_reader.h"
#include "traces/kernel_source.h"

namespace warpsim::traces::accelsim {

/// One kernel entry of a kernelslist.g with the copies listed before it.
struct KernelListEntry {
  std::string path;  ///< Path of the .traceg[.xz], resolved against the list's folder.
  std::vector<MemcpyEvent> memcpys_before;
};

/// Parses a kernelslist.g stream; `name` and `folder` name the file and resolve entries.
/// Throws InputError (file, line) for a malformed MemcpyHtoD line or a .tracez entry.
std::vector<KernelListEntry> parse_kernel_list(std::istream& in, const std::string& name,
                                               const std::string& folder);

/// Streams the kernels of an Accel-Sim trace.
class AccelSimSource final : public KernelSource {
 public:
  /// `path`: a kernelslist.g, or one .traceg / .traceg.xz.
  explicit AccelSimSource(const std::string& path);
  ~AccelSimSource() override;

  bool next_kernel(KernelInfo& kernel) override;
  bool next_cta(CtaTrace& cta) override;
  std::string describe() const override { return path_; }

  /// Number of kernel entries.
  size_t kernel_count() const { return entries_.size(); }
  /// The kernel entries (paths resolved).
  const std::vector<KernelListEntry>& entries() const { return entries_; }

 private:
  std::string path_;
  std::vector<KernelListEntry> entries_;
  size_t next_entry_ = 0;
  std::unique_ptr<std::istream> stream_;
  std::unique_ptr<TracegReader> reader_;
  std::map<Isa, std::shared_ptr<OpcodeTable>> tables_;
};

/// Opens `path` for reading, decompressing it when it ends in ".xz". Throws InputError when it
/// cannot be opened.
std::unique_ptr<std::istream> open_trace_stream(const std::string& path);

}  // namespace warpsim::traces::accelsim
