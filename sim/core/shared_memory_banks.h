// Shared-memory bank conflicts of one warp access: how many wavefronts (shared-memory data
// transactions) the access takes and how many of them are bank conflicts, as Nsight Compute counts
// them (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}: wavefronts beyond the ideal).
//
// Fidelity: shared memory is `banks` banks of `bank_width_bytes` (32 x 4 B on NVIDIA); word w of
// the address space lives in bank w mod banks. One wavefront moves banks x bank_width bytes, so a
// warp access is split into phases of as many lanes as fit in one wavefront (all 32 lanes for
// 1-, 2- and 4-byte accesses, half-warps for 8-byte and quarter-warps for 16-byte accesses on
// 32 x 4 B banks), as Ampere and Hopper hardware splits them. Within a phase, lanes that touch the
// same word are served together (broadcast), and a bank serving k distinct words needs k
// wavefronts; the phase costs the largest such k. A phase without active lanes costs nothing. An
// access that is not naturally aligned touches every word its bytes cover.
//
// Left out: arbitration conflicts with other traffic in the same cycle (the hardware counter
// includes some), atomics and LDGSTS/TMA traffic, and the timing of wavefronts in the MIO pipe,
// which the SM model charges.
#pragma once

#include <array>
#include <cstdint>

#include "sim/core/lane_addresses.h"

namespace warpsim::core {

/// Geometry of the shared-memory banks.
struct SharedMemoryBankConfig {
  int banks = 32;            ///< Number of banks, 1..64.
  int bank_width_bytes = 4;  ///< Bytes per bank word: 4, 8 or 16.
};

/// Cost of one warp access to shared memory.
struct SharedAccessCost {
  int wavefronts = 0;        ///< Data transactions, conflicts included.
  int ideal_wavefronts = 0;  ///< Phases with at least one active lane.
  int bank_conflicts = 0;    ///< wavefronts - ideal_wavefronts.
  int max_ways = 0;          ///< Largest number of distinct words one bank serves in a phase.
};

/// Computes bank conflicts for warp accesses. Holds no per-access state; access() allocates
/// nothing and may be called concurrently.
class SharedMemoryBanks {
 public:
  /// Largest supported number of banks.
  static constexpr int kMaxBanks = 64;

  /// Throws warpsim::InputError naming the field when `config` is out of range.
  explicit SharedMemoryBanks(const SharedMemoryBankConfig& config);

  /// The cost of the lanes in `active_mask` accessing `width_bytes` (1, 2, 4, 8 or 16) at their
  /// `addresses`. Throws warpsim::InputError for any other width.
  SharedAccessCost access(std::uint32_t active_mask, LaneAddresses addresses,
                          int width_bytes) const;

  /// The configuration this model was built with.
  const SharedMemoryBankConfig& config() const { return config_; }

 private:
  static constexpr int kMinBankWidthBytes = 4;
  // Distinct words one phase can touch: every lane, each covering at most
  // kMaxAccessBytes / kMinBankWidthBytes words plus one when misaligned.
  static constexpr int kMaxWordsPerPhase = kWarpLanes * (kMaxAccessBytes / kMinBankWidthBytes + 1);

  // Wavefronts of one phase: lanes [first, first + count) of `active_mask`; 0 when none is
  // active. Updates `max_ways`.
  int phase_wavefronts(std::uint32_t active_mask, LaneAddresses addresses, int width_bytes,
                       int first, int count, int& max_ways) const;

  SharedMemoryBankConfig config_;
  int bank_shift_ = 0;  // log2(bank_width_bytes)
};

}  // namespace warpsim::core
