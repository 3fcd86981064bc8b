// A functional emulator of the integer and predicate subset of SASS, used as the WarpOracle of
// the workload models: it executes a warp's instructions lane by lane on 32-bit register values,
// so that guard predicates (hence branches, exits and divergence) and memory addresses come out of
// the compiled code itself, from the kernel's parameters, block and grid dimensions and thread
// indices — exactly as the CUDA twin computes them.
//
// Fidelity: exact for the integer datapath (IMAD with .WIDE/.HI/.X, IADD3 with carries, LOP3,
// SHF, LEA, ISETP, SEL, IMNMX, POPC, MOV, PLOP3, VOTE, SHFL, S2R/S2UR/CS2R, LDC/ULDC and their
// uniform U* forms). Floating-point results are not computed: they are "unknown", and so is
// anything derived from them or from memory a model does not supply (load values come from a
// MemoryReader). A branch whose predicate is unknown is an error naming the PC; other guarded
// instructions with an unknown predicate run on every active lane.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "traces/dim3.h"
#include "workloads/sass_listing.h"
#include "workloads/sass_walker.h"

namespace warpsim::workloads {

/// What a kernel launch puts in constant bank 0 and the special registers.
struct LaunchContext {
  traces::Dim3 grid{1, 1, 1};
  traces::Dim3 block{1, 1, 1};
  traces::Dim3 cta{0, 0, 0};         ///< This warp's blockIdx.
  uint32_t warp_in_cta = 0;          ///< Warp index within the CTA (threads 32·w … 32·w+31).
  std::vector<uint8_t> parameters;   ///< Kernel parameter bytes, placed at parameter_offset.
  uint32_t parameter_offset = 0x210; ///< c[0x0] offset of the first parameter (sm_90: 0x210).
  /// Guard-predicate values to assume where the emulator cannot compute them (branches on
  /// floating-point values, e.g. the fast path of a division): PC → the predicate register's value.
  std::map<uint32_t, bool> assumed_predicates{};
};

/// Supplies the 32-bit word at a global address, for loads whose values steer the kernel
/// (pointer chasing); nullopt leaves the loaded register unknown.
using MemoryReader = std::function<std::optional<uint32_t>(uint64_t address)>;

class SassEmulator final : public WarpOracle {
 public:
  /// Decodes every instruction of `function` once; copies of the emulator share the decoded
  /// program, the launch's constants and `reader` (read-only, so copies may run on different
  /// threads), and each has its own registers.
  SassEmulator(const SassFunction& function, LaunchContext context, MemoryReader reader = {});

  /// Starts a new warp: registers and predicates become unknown; decoded operands are kept.
  void start_warp(traces::Dim3 cta, uint32_t warp_in_cta);

  traces::LaneMask predicate(const SassInstruction& inst, uint32_t visit,
                             traces::LaneMask active, traces::LaneMask& unknown) override;
  void addresses(const SassInstruction& inst, uint32_t visit, traces::LaneMask active,
                 std::span<uint64_t, 32> out) override;
  void executed(const SassInstruction& inst, uint32_t visit, traces::LaneMask exec) override;

  /// Value of R<index> in `lane`, if known (for tests).
  std::optional<uint32_t> reg(int index, int lane) const;
  /// Value of UR<index>, if known.
  std::optional<uint32_t> ureg(int index) const;

  /// One decoded operand (public for the operand decoder in the .cc).
  struct Operand {
    enum class Kind : uint8_t { kNone, kReg, kUreg, kPred, kUpred, kImm, kConst, kMem, kSpecial };
    Kind kind = Kind::kNone;
    int index = 0;          // register index; special: SR code
    bool negate = false;    // '-' (integers) or '!' (predicates)
    bool invert = false;    // '~'
    bool wide = false;      // ".64" register pair
    uint64_t imm = 0;       // immediate value; const offset; memory displacement
    int base_reg = -1;      // memory: R base (-1 none)
    int base_ureg = -1;     // memory: UR base (-1 none)
    int const_bank = 0;
    int const_reg = -1;     // c[bank][R+off]
  };

  /// The operations the emulator computes (uniform U* forms map to the same value).
  enum class Op : uint8_t {
    kOther, kMov, kImad, kIadd3, kIadd, kLop3, kPlop3, kShf, kLea, kIsetp, kSel, kFsel, kImnmx,
    kIabs, kPopc, kS2r, kCs2r, kLdc, kLdg, kVote, kShfl
  };
  /// Mnemonic modifiers the semantics depend on, one bit each.
  enum Mod : uint32_t {
    kW128 = 1u << 0, kW64 = 1u << 1, kAll = 1u << 2, kBfly = 1u << 3, kDown = 1u << 4,
    kEq = 1u << 5, kEx = 1u << 6, kGe = 1u << 7, kGt = 1u << 8, kHi = 1u << 9, kIdx = 1u << 10,
    kL = 1u << 11, kLe = 1u << 12, kLt = 1u << 13, kNe = 1u << 14, kOr = 1u << 15,
    kS32 = 1u << 16, kS64 = 1u << 17, kSx32 = 1u << 18, kU32 = 1u << 19, kU64 = 1u << 20,
    kUp = 1u << 21, kWide = 1u << 22, kX = 1u << 23, kXor = 1u << 24
  };
  /// One static instruction, decoded once: operation, modifiers and operands.
  struct Decoded {
    Op op = Op::kOther;
    uint32_t mods = 0;
    bool uniform = false;   // writes uniform registers: computed once per warp
    size_t first_src = 1;   // index of the first source operand (after predicate outputs)
    std::vector<Operand> ops;
    bool has(Mod m) const { return (mods & m) != 0; }
  };
  /// What every warp of one launch shares, read-only once built.
  struct Program {
    const SassFunction* function = nullptr;
    LaunchContext context;           ///< cta and warp_in_cta unused: each emulator has its own.
    MemoryReader reader;
    std::array<uint32_t, 6> dims{};  ///< c[0x0][0x0..0x14]: block and grid dimensions.
    std::vector<Decoded> decoded;    ///< By instruction index.
    int registers = 256;             ///< R0 … R(registers − 1) hold values; RZ and beyond are 0.
  };

 private:
  /// 32 lanes of one operand: values (64-bit wide reads fill all bits) and a known mask.
  struct Vec {
    std::array<uint64_t, 32> v{};
    uint32_t known = 0;
  };
  const Decoded& decoded(const SassInstruction& inst) const;
  static Decoded decode(const SassInstruction& inst);
  Vec fetch(const Operand& op, bool as64) const;
  /// Predicate lanes: values and known mask.
  void fetch_pred(const Operand& op, uint32_t& value, uint32_t& known) const;
  void store(const Operand& dst, const Vec& value, uint32_t exec, int words);
  void store_pred(const Operand& dst, uint32_t value, uint32_t known, uint32_t exec);
  std::optional<uint32_t> constant(int bank, uint64_t offset) const;
  void execute(const Decoded& d, uint32_t exec);

  std::shared_ptr<const Program> program_;
  traces::Dim3 cta_{0, 0, 0};  // this warp's blockIdx
  uint32_t warp_in_cta_ = 0;
  /// The 32 lanes of R<index>: zeros for RZ and registers the function never names.
  const std::array<uint32_t, 32>& lanes(int index) const;

  // Per-lane general registers (only those the function names, so that a warp's copy stays
  // small) and predicates; known flags one bit per lane.
  std::vector<std::array<uint32_t, 32>> r_;
  std::array<uint32_t, 256> r_known_{};
  std::array<uint32_t, 8> p_value_{};
  std::array<uint32_t, 8> p_known_{};
  std::array<uint32_t, 64> ur_{};
  uint64_t ur_known_ = 0;
  uint8_t up_value_ = 0;
  uint8_t up_known_ = 0;
};

}  // namespace warpsim::workloads
