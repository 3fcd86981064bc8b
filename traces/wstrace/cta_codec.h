// Conversion between the trace IR and the .wstrace messages (wstrace.proto): a CtaTrace to and
// from a CtaProto, and a KernelInfo to and from a KernelProto (the chunk index fields aside).
// Encoding is lossless for every IR field, pool layouts included, so a decoded CTA compares equal
// to the encoded one. Decoding checks every count and index against the message and the warp
// size, and throws InputError naming `where` for anything inconsistent; it never reads out of
// bounds. Buffers of the output CtaTrace are reused.
#pragma once

#include <string>

#include "traces/cta_trace.h"
#include "traces/kernel_info.h"
#include "traces/wstrace/wstrace.pb.h"

namespace warpsim::traces::wstrace {

/// Fills `out` (cleared first) from `cta`.
void encode_cta(const CtaTrace& cta, CtaProto& out);

/// Fills `cta` from `in`; `warp_size` bounds the masks, `opcode_count` the opcode ids.
void decode_cta(const CtaProto& in, uint32_t warp_size, size_t opcode_count,
                const std::string& where, CtaTrace& cta);

/// Fills `out`'s launch fields from `kernel` (opcode table and index fields untouched).
void encode_kernel(const KernelInfo& kernel, KernelProto& out);

/// Fills `kernel`'s launch fields from `in` (the opcode table is left to the caller). Throws
/// InputError naming `where` for an unknown ISA.
void decode_kernel(const KernelProto& in, const std::string& where, KernelInfo& kernel);

}  // namespace warpsim::traces::wstrace
