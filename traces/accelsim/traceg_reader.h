// Reads one Accel-Sim .traceg stream (plain or already decompressed): the header into a
// KernelInfo, then CTA by CTA (#BEGIN_TB … #END_TB) into a caller-owned CtaTrace, so memory stays
// bounded by one CTA. Header lines "-key = value" are recognised by their key; unknown keys are
// skipped; the first line starting with '#' ends the header. Besides the keys of the grammar it
// reads "-cluster dim = (x,y,z)", which the warpsim writer adds for kernels with clusters.
// Anything malformed throws InputError naming the file, the line and what was expected; a
// stream that fails while reading (a corrupt or truncated .xz) is reported the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <string>

#include "traces/accelsim/instruction_line.h"
#include "traces/cta_trace.h"
#include "traces/kernel_info.h"

namespace warpsim::traces::accelsim {

/// A .traceg reader over `in`.
class TracegReader {
 public:
  /// `name` names the file in messages; `in` must outlive the reader.
  TracegReader(std::istream& in, std::string name);

  /// Reads the header. `table_for` gives the opcode table for the kernel's ISA (so kernels of
  /// one trace can share one). Throws InputError for a malformed or incomplete header.
  KernelInfo read_header(const std::function<std::shared_ptr<OpcodeTable>(Isa)>& table_for);

  /// Reads the next CTA; false at the end of the file.
  bool next_cta(CtaTrace& cta);

  /// Lines read so far.
  uint64_t line_number() const { return line_number_; }

 private:
  bool next_line();
  void parse_header_line(KernelInfo& info);
  bool next_content_line();
  void parse_warp(std::string_view value, CtaTrace& cta, uint64_t& seen);
  [[noreturn]] void fail(const std::string& expected) const;

  std::istream& in_;
  std::string name_;
  std::string line_;
  uint64_t line_number_ = 0;
  bool pending_ = false;  // line_ holds the line that ended the header
  KernelInfo info_;
  OpcodeTable* opcodes_ = nullptr;
  LineFormat format_;
};

}  // namespace warpsim::traces::accelsim
