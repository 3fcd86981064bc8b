// Writes kernels as an Accel-Sim trace: a kernelslist.g (MemcpyHtoD lines, then one
// kernel-<n>.traceg entry per kernel, n counting from 1) and the .traceg files beside it, in the
// grammar of ../shared/ACCELSIM_TRACE.md so that Accel-Sim's parser accepts them. Each kernel is
// written with its own tracer version when it has one (3–6) and version 6 otherwise; fields a
// version lacks are dropped (see instruction_line.h). Writing streams: one CTA at a time.
// NVIDIA ISAs only (Accel-Sim traces are SASS); a CDNA kernel throws InputError.
#pragma once

#include <cstdint>
#include <string>

#include "traces/kernel_source.h"

namespace warpsim::traces::accelsim {

/// Sizes of a written trace.
struct AccelSimWriteStats {
  uint64_t kernels = 0;
  uint64_t ctas = 0;
  uint64_t instructions = 0;
  uint64_t bytes = 0;  ///< Bytes of every file written.
};

/// Options of the writer.
struct AccelSimWriteOptions {
  bool xz = false;  ///< Compress the kernel files (kernel-<n>.traceg.xz).
};

/// Writes every remaining kernel of `source` as `kernelslist` (a path ending in kernelslist.g,
/// or a folder that receives one) plus its .traceg files.
AccelSimWriteStats write_accelsim(KernelSource& source, const std::string& kernelslist,
                                  const AccelSimWriteOptions& options = {});

/// Writes the header of one .traceg (through the '#traces format' line) to `out`.
void format_traceg_header(const KernelInfo& kernel, uint32_t version, std::string& out);

/// Writes one CTA (#BEGIN_TB … #END_TB) of `kernel` to `out`.
void format_traceg_cta(const KernelInfo& kernel, uint32_t version, const CtaTrace& cta,
                       std::string& out);

/// The tracer version the writer uses for `kernel`.
uint32_t writer_version(const KernelInfo& kernel);

}  // namespace warpsim::traces::accelsim
