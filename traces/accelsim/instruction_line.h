// One instruction line of an Accel-Sim .traceg file (grammar: ../shared/ACCELSIM_TRACE.md),
// parsed into the trace IR and written back. Versions 3–5: [line] PC MASK DST_NUM dsts OPCODE
// SRC_NUM srcs MEM_WIDTH [address mode + addresses] [IMM]. Version 6 adds R/UR/P/UP registers,
// the GMMA commit flag after the sources (opcodes containing "GMMA"), TMA fields after MEM_WIDTH
// for TMA opcodes, and after IMM an optional second immediate and Val/NoVal register values.
//
// Our reading of the TMA fields, which the grammar leaves loose: mbarrier (hex), multicast flag
// (0|1) [hex CTA mask when 1], bytes, out-of-bounds bytes, address mode, then mode 0:
// `count addr…` or mode 2: `count base delta…` (count−1 deltas). Lane addresses: mode 0 lists
// one address per active lane; mode 1 is base + i × stride for the i-th active lane; mode 2 is a
// base and popcount−1 signed deltas, each from the previous active lane.
//
// Left out: the guard predicate and predicated_off (the format has neither); instructions whose
// lane addresses were not recorded are written with MEM_WIDTH 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "traces/accelsim/tokens.h"
#include "traces/isa/opcode_table.h"
#include "traces/warp_trace.h"

namespace warpsim::traces::accelsim {

/// What the lines of one kernel look like.
struct LineFormat {
  uint32_t version = 6;    ///< Accel-Sim tracer version, 3–6.
  bool line_info = false;  ///< Lines start with a source line number.
  uint32_t warp_size = 32;
};

/// Parses one instruction line and appends it to `warp`, interning its opcode in `opcodes`.
/// Throws InputError (file, line, what was expected) on malformed input.
void parse_instruction(Tokens& tokens, const LineFormat& format, OpcodeTable& opcodes,
                       WarpTrace& warp);

/// Appends instruction `index` of `warp` as one line (with the trailing space and newline the
/// tracer writes) to `out`.
void format_instruction(const WarpTrace& warp, size_t index, const OpcodeTable& opcodes,
                        const LineFormat& format, std::string& out);

/// True when Accel-Sim v6 writes a GMMA commit flag for `mnemonic`.
bool has_gmma_flag(std::string_view mnemonic);

/// True for the TMA opcodes after whose MEM_WIDTH v6 writes TMA fields.
bool is_tma_opcode(std::string_view mnemonic);

}  // namespace warpsim::traces::accelsim
