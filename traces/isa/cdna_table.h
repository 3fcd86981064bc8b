// The AMD CDNA3 (gfx942, MI300X) opcode rules. CDNA mnemonics are lower-case words joined by
// underscores ("v_fma_f32", "global_load_dwordx4", "ds_read_b128"); an ordered rule table maps a
// mnemonic to its class by exact name, prefix and contained type tag (v_mfma_* → TENSOR,
// v_cvt_* → CONVERSION, v_exp/log/rcp/rsq/sqrt/sin/cos → SFU, *_f64 → FP64, v_pk_* and *_f16 →
// FP16, *_f32 → FP32, other v_* → INT, s_* → UNIFORM except branches, s_barrier, s_endpgm and
// s_waitcnt/s_nop; ds_* → shared memory, global_/flat_/buffer_/scratch_ → their spaces, image_* →
// TEXTURE). The width of a memory access comes from its size tag (dword, dwordx4, b64, ubyte, …).
// Encodings, modifiers written as separate operands (glc, slc, offset:) and DPP/SDWA control are
// not modelled.
#pragma once

#include <string_view>

#include "traces/isa/opcode_info.h"

namespace warpsim::traces {

/// Classifies a CDNA3 mnemonic (case-insensitive). Unknown mnemonics give known == false and
/// OP_CLASS_UNKNOWN; this never throws.
OpcodeInfo classify_cdna(std::string_view mnemonic);

}  // namespace warpsim::traces
