// A parsed SASS listing (the text `cuobjdump -sass` prints): per function, its instructions with
// PC, guard predicate, full mnemonic, destination and source registers, and the scheduling
// control bits the compiler encoded (stall cycles, yield, read/write dependency barriers, wait
// mask). The workload models follow a real listing of their CUDA twin, so the simulated opcodes
// and register dependences are the compiled kernel's own.
//
// Fidelity: registers are recovered from the operand text (R, UR, P, UP, with RZ/URZ/PT/UPT),
// destinations by operand position with the opcode's convention (stores, branches and barriers
// have none; a comparison's or add's leading predicate operands are destinations). Register pairs
// (`R2.64`) are named by their first register, as traces do. Left out: operand types and
// immediates other than branch targets, and the meaning of most modifiers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/registers.h"

namespace warpsim::workloads {

/// The scheduling control bits of one Volta-and-later SASS instruction.
struct SassControl {
  uint8_t stall_cycles = 0;    ///< Cycles before the next instruction may issue.
  bool yield = false;          ///< Yield hint.
  uint8_t write_barrier = 7;   ///< Dependency barrier set when results are written (7: none).
  uint8_t read_barrier = 7;    ///< Dependency barrier set when sources are read (7: none).
  uint8_t wait_mask = 0;       ///< Dependency barriers waited on before issue (bit per barrier).
  uint8_t reuse = 0;           ///< Operand reuse cache flags.
};

/// One static instruction of a listing.
struct SassInstruction {
  uint32_t pc = 0;              ///< Byte offset in the function.
  std::string mnemonic;         ///< Opcode with modifiers, e.g. "LDG.E.CONSTANT".
  std::string operands;         ///< Operand text as printed.
  traces::Reg guard{};          ///< Guard predicate, or no register.
  bool guard_negated = false;   ///< "@!P0".
  std::vector<traces::Reg> dsts;
  std::vector<traces::Reg> srcs;
  std::optional<uint32_t> branch_target;  ///< BRA/BSSY/CALL target PC.
  SassControl control;

  /// The mnemonic's first dot-token ("LDG" of "LDG.E.CONSTANT").
  std::string_view base() const;
};

/// One kernel function of a listing.
struct SassFunction {
  std::string name;  ///< Mangled name as cuobjdump prints it.
  std::vector<SassInstruction> instructions;  ///< In PC order, without trailing NOP padding.

  /// The instruction at byte offset `pc`, or nullptr.
  const SassInstruction* at(uint32_t pc) const;
  /// Index of the instruction at `pc`; throws InputError naming the function when none.
  size_t index_of(uint32_t pc) const;
};

/// A whole listing (one cubin's functions).
struct SassListing {
  std::string source;  ///< File name for messages.
  std::vector<SassFunction> functions;

  /// The one function whose mangled name contains `needle` (e.g. "5w_saxpy"); throws InputError
  /// naming the listing when none or several match.
  const SassFunction& function(std::string_view needle) const;
};

/// Parses `cuobjdump -sass` text. `source` names the file in error messages, which give its line.
SassListing parse_sass_listing(std::string_view text, const std::string& source);

/// Decodes the control bits from the high 64-bit word of a 128-bit instruction (sm_70 and later).
SassControl decode_control(uint64_t high_word);

/// Parses the registers of one instruction's operand text into `inst` (dsts, srcs, target).
void parse_operands(SassInstruction& inst);

}  // namespace warpsim::workloads
