// The register scoreboard of one warp: the writes it has in flight over general (R), uniform
// (UR), predicate (P, UP) and AMD (v, s, a) registers, each with the cycle its result is ready,
// or "pending" until the memory pipeline reports the producing operation complete. Each write
// remembers what kind of producer it waits for, so that a stalled warp is charged ncu's reason:
// a fixed-latency ALU result (`wait`), an MIO result (shared memory, shuffle, MUFU, constants:
// `short_scoreboard`) or an L1TEX result (global, local, texture: `long_scoreboard`).
//
// Reads after writes and writes after writes both stall; so does a write of a register a shared
// store still has to read (lock_for_read; the H200 charges the wait to short_scoreboard). The zero registers (RZ, URZ, PT, UPT)
// are ignored. A write of several consecutive registers (a 128-bit load into R4..R7, an MMA
// accumulator) covers them all. Fixed storage: a bitset over every register and kCapacity write
// entries; nothing allocates. When every entry is in use, a new write waits for the oldest (as
// hardware waits for a free dependency barrier).
//
// Left out: SASS's explicit dependency barriers (SB0–SB5) and register-file bank conflicts; a
// predicated-off lane still counts as a reader.
#pragma once

#include <array>
#include <cstdint>

#include "sim/engine/clock_domain.h"
#include "traces/instruction.h"

namespace warpsim::core {

/// What produces a pending register value.
enum class DependencyKind : std::uint8_t {
  kFixed = 0,  ///< Fixed-latency pipeline: a dependent stalls on `wait`.
  kShort = 1,  ///< MIO (shared memory, shuffle, MUFU, constants): `short_scoreboard`.
  kLong = 2,   ///< L1TEX (global, local, texture, surface): `long_scoreboard`.
};

/// The outcome of a scoreboard check.
struct Hazard {
  bool blocked = false;     ///< False: the instruction may issue now.
  engine::Cycle ready = 0;  ///< Cycle the last hazard clears; engine::kSleep when a pending
                            ///< memory result has no completion cycle yet.
  DependencyKind kind = DependencyKind::kFixed;  ///< Producer kind of the binding hazard.
};

/// Per-warp register scoreboard.
class Scoreboard {
 public:
  /// Write entries one warp may have in flight.
  static constexpr int kCapacity = 32;
  /// Size of the flattened register space (R, UR, P, UP, v, s, a).
  static constexpr int kRegisterSlots = 1232;

  /// Forgets every write (a new warp in the slot).
  void clear();

  /// Checks `inst` issued at `now`: its sources and guard against pending writes (RAW), its
  /// destinations (`dst_regs` registers from each) against pending writes (WAW), and the
  /// entry capacity when it writes registers.
  Hazard check(const traces::WarpInstruction& inst, int dst_regs, engine::Cycle now);

  /// Records the writes of `inst` (each destination covers `dst_regs` registers), ready at
  /// `ready` (engine::kSleep: pending until complete(op_id, …)). Call only after check()
  /// returned no hazard at the same cycle.
  void record(const traces::WarpInstruction& inst, int dst_regs, engine::Cycle ready,
              DependencyKind kind, std::uint32_t op_id);

  /// Locks `count` registers from `reg` (a shared store's data, which the MIO reads after issue)
  /// until memory operation `op_id` completes: an instruction that writes them meanwhile waits
  /// (write after read), as does, rarely, one that reads them.
  void lock_for_read(traces::Reg reg, int count, DependencyKind kind, std::uint32_t op_id);

  /// The memory operation `op_id` wrote its registers at cycle `at`.
  void complete(std::uint32_t op_id, engine::Cycle at);

  /// Entries in use (including expired ones not yet reclaimed).
  int entries_in_use() const;

  /// Flattened index of `reg`, or -1 for no operand, a zero register or an index out of range.
  static int flat_index(traces::Reg reg) {
    const unsigned kind = reg.bits >> 13;
    const unsigned index = reg.bits & traces::Reg::kMaxIndex;
    if (index >= kKindSize[kind] || index == kKindZero[kind]) return -1;
    return kKindBase[kind] + static_cast<int>(index);
  }

 private:
  struct Entry {
    engine::Cycle ready = 0;
    std::uint32_t op_id = 0;
    std::uint16_t first = 0;
    std::uint8_t count = 0;
    DependencyKind kind = DependencyKind::kFixed;
  };

  // First flattened slot, register count and zero register (none: kNoZero) of each RegKind
  // (index = enum value; kNone has no registers).
  static constexpr unsigned kNoZero = ~0u;
  static constexpr std::array<int, 8> kKindBase = {0, 0, 256, 320, 328, 336, 848, 976};
  static constexpr std::array<unsigned, 8> kKindSize = {0, 256, 64, 8, 8, 512, 128, 256};
  static constexpr std::array<unsigned, 8> kKindZero = {kNoZero, 255, 63, 7, 7,
                                                        kNoZero, kNoZero, kNoZero};

  bool test(int slot) const { return (bits_[slot >> 6] >> (slot & 63)) & 1u; }
  // check_slot when `slot` (≥ 0) may have a pending write: the common "no" answered inline.
  void check_reg(int slot, engine::Cycle now, Hazard& hazard) {
    if (slot >= 0 && test(slot)) check_entries(slot, now, hazard);
  }
  void set_bits(int first, int count, bool value);
  // Folds the entries covering register slot `slot` (its bit set) into `hazard`, reclaiming
  // expired ones.
  void check_entries(int slot, engine::Cycle now, Hazard& hazard);
  void fold(const Entry& e, Hazard& hazard) const;
  void release(int entry);
  // Records a write entry over `count` registers from `reg` (none for a zero register or when
  // every entry is in use).
  void add_entry(traces::Reg reg, int count, engine::Cycle ready, DependencyKind kind,
                 std::uint32_t op_id);

  std::uint32_t used_ = 0;  // bit i: entries_[i] in use
  std::array<std::uint64_t, (kRegisterSlots + 63) / 64> bits_{};
  std::array<Entry, kCapacity> entries_{};
};

}  // namespace warpsim::core
