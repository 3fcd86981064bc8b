// Builders that make kernels by hand easy to write, for tests and for the workload models:
//
//   KernelBuilder k("saxpy", {4, 1, 1}, {64, 1, 1}, Isa::kSm90);
//   k.fill_grid([](WarpBuilder& w, const CtaTrace& cta, uint32_t warp) {
//     w.add("S2R", {gpr(0)})
//      .mem("LDG.E", {gpr(2)}, {gpr(4)}, strided_addresses(w.current_mask(), 0x1000, 4))
//      .add("FFMA", {gpr(3)}, {gpr(2), gpr(5), gpr(3)})
//      .add("EXIT");
//   });
//   KernelTrace trace = std::move(k).build();
//
// Mnemonics are interned in the kernel's OpcodeTable as they are added. PCs advance by 16 bytes
// (SASS) or 8 bytes (CDNA) per instruction unless set. Bad arguments (too many registers, an
// address count that does not match the mask, a CTA outside the grid) throw InputError.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traces/cta_trace.h"
#include "traces/in_memory_source.h"
#include "traces/kernel_info.h"

namespace warpsim::traces {

/// Appends instructions to one WarpTrace.
class WarpBuilder {
 public:
  /// Builds into `warp`, interning into `opcodes`; instructions start with all lanes active.
  WarpBuilder(WarpTrace& warp, OpcodeTable& opcodes);

  /// Active mask of the instructions added from now on.
  WarpBuilder& mask(LaneMask mask);
  /// The active mask new instructions get.
  LaneMask current_mask() const { return mask_; }
  /// PC of the next instruction (later ones follow at the ISA's step).
  WarpBuilder& pc(uint32_t pc);

  /// Appends a non-memory instruction.
  WarpBuilder& add(std::string_view mnemonic, std::initializer_list<Reg> dsts = {},
                   std::initializer_list<Reg> srcs = {});

  /// Appends a memory instruction with one address per active lane (in lane order).
  /// `width_bytes` 0 takes the opcode table's width.
  WarpBuilder& mem(std::string_view mnemonic, std::initializer_list<Reg> dsts,
                   std::initializer_list<Reg> srcs, std::span<const uint64_t> lane_addresses,
                   uint16_t width_bytes = 0);

  /// Sets the guard predicate of the last instruction ("@P0", or "@!P0" when negated).
  WarpBuilder& guard(Reg predicate, bool negated = false);
  /// Sets the immediate of the last instruction.
  WarpBuilder& imm(int64_t value);
  /// Sets the source line of the last instruction (every instruction of the warp then needs one;
  /// earlier ones get line 0).
  WarpBuilder& line(uint32_t line_number);

  /// The last instruction added. Throws InternalError when there is none.
  WarpInstruction& last();
  /// The warp being built.
  WarpTrace& warp() { return warp_; }

 private:
  WarpInstruction& append(std::string_view mnemonic, std::initializer_list<Reg> dsts,
                          std::initializer_list<Reg> srcs);

  WarpTrace& warp_;
  OpcodeTable& opcodes_;
  LaneMask mask_;
  uint32_t next_pc_ = 0;
  uint32_t pc_step_;
};

/// Address of each active lane: base + lane × stride_bytes, in lane order.
std::vector<uint64_t> strided_addresses(LaneMask mask, uint64_t base, int64_t stride_bytes);

/// Builds one kernel: its launch description and its CTAs.
class KernelBuilder {
 public:
  /// A kernel with a fresh opcode table for `isa`.
  KernelBuilder(std::string name, Dim3 grid, Dim3 block, Isa isa = Isa::kSm90);
  /// A kernel interning into `opcodes` (shared between kernels of one trace).
  KernelBuilder(std::string name, Dim3 grid, Dim3 block, std::shared_ptr<OpcodeTable> opcodes);

  /// The launch description, to set registers, shared memory, cluster, stream, …
  KernelInfo& info() { return info_; }
  /// The opcode table instructions intern into.
  OpcodeTable& opcodes() { return *opcodes_; }

  /// Adds a CTA at `index` with warps_per_cta() empty warps; returns its position. Throws
  /// InputError when `index` is outside the grid.
  size_t add_cta(Dim3 index);
  /// The CTA at `position` (stable until build()).
  CtaTrace& cta(size_t position);
  /// A builder for warp `warp` of the CTA at `position`.
  WarpBuilder warp(size_t position, uint32_t warp);

  /// Adds every CTA of the grid in linear order and calls fn(builder, cta, warp_id) per warp.
  void fill_grid(const std::function<void(WarpBuilder&, const CtaTrace&, uint32_t)>& fn);

  /// Validates the launch description and returns the kernel.
  KernelTrace build() &&;

 private:
  KernelInfo info_;
  std::shared_ptr<OpcodeTable> opcodes_;
  std::deque<CtaTrace> ctas_;
};

}  // namespace warpsim::traces
