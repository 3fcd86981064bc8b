// The MIO path of an SM: shared-memory loads, stores and atomics (LDS, STS, ATOMS, LDSM, STSM),
// shuffles (SHUFFLE class) and constant loads, queued per sub-partition in front of one
// shared-memory data path that moves one wavefront per cycle.
//
// Timing: an access of W wavefronts (from SharedMemoryBanks for shared memory; 1 for a shuffle;
// the number of distinct addresses for a constant load; a shared load with bank conflicts adds
// shared_conflict_extra_cycles) holds the data path W cycles and completes
// latency + (W − 1) cycles after it starts, where latency is the shared, shuffle or constant
// latency of the configuration. An access starts at the first cycle, at or after its issue, at
// which the data path is free; when several sub-partitions wait, they are served round robin. A
// sub-partition whose queue (or the SM-wide MIO queue) is full is refused: mio_throttle.
//
// wgmma's shared-memory operands take the data path too (read_operands): an m64n128k16 bf16 HGMMA
// with both inputs in shared memory reads 6 KB, 48 wavefronts, which Nsight Compute counts in
// memory_l1_wavefronts_shared (validate/reference/h200/raw.csv, gemm_wgmma_bf16: 192 wavefronts
// per CTA and K stage beyond the stores' own). The reads are a backlog the path serves when idle
// and shares evenly with MIO accesses otherwise: an access that starts while reads are owed holds
// the path one extra cycle per wavefront, up to the backlog, so that neither side starves.
//
// Load data (return_load_data, with l1_load_data_uses_shared_path): a global or local load's data
// reaches the registers through the same data array, one wavefront per line it touches, so a
// load that is ready at the L1 waits while shared accesses hold the path (on the H200 an L1-hit
// load chase takes 4385 / 8434 / 16482 cycles for 48 hops beside 3 / 7 / 15 warps of 32-way
// conflicted shared loads, 1849 alone, about as long as a one-wavefront shared-load chase there:
// 4090 / 8110 / 16363; validate/reference/h200/data_array.tsv). The data takes the turn of the
// sub-partition that issued the load, in line with that sub-partition's queued accesses by the
// cycle each was ready (issued, for an access). Unloaded, a load completes when its data is
// ready. validate/capture/probes/data_array_trace.py replays the probe. With
// l1_store_data_uses_shared_path a store's data takes the same turn on its way out (one wavefront
// per line) before the store has left the SM.
//
// Left out: the MIO's separate instruction-queue and register-read stages; the SM-wide line that
// takes accesses from the sub-partitions' queues; fills' data-array writes; the extra
// cost of conflicted shared stores and atomics (not measured); the half rate one sub-partition gets alone (one warp's k-way
// conflicted loads take about 2k + 9 cycles each, lds_rate.tsv); the constant cache's misses
// (every constant load hits); and the served order: sub-partitions round robin, where the H200
// serves a light load after the heavy ones queued before it (data_array.tsv).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/lane_addresses.h"
#include "sim/core/memory_pipeline.h"
#include "sim/core/shared_memory_banks.h"
#include "sim/core/sm_memory_access.h"
#include "sim/core/sm_memory_completions.h"
#include "sim/core/sm_memory_config.h"
#include "sim/core/sm_memory_counters.h"
#include "sim/engine/clock_domain.h"

namespace warpsim::core {

/// What an MIO instruction does.
enum class MioKind : std::uint8_t {
  kSharedLoad,    ///< LDS, LDSM, generic loads in the shared window.
  kSharedStore,   ///< STS, STSM.
  kSharedAtomic,  ///< ATOMS and shared reductions.
  kShuffle,       ///< SHFL, MATCH, REDUX and other cross-lane operations.
  kConstant,      ///< LDC, ULDC.
  kOther,         ///< Other MIO traffic (tensor memory): one wavefront at the shared latency.
};

/// The MIO queues and the shared-memory data path of one SM.
class MioPipe {
 public:
  /// `config` must be valid; `counters` and `completions` must outlive the pipe.
  MioPipe(const SmMemoryConfig& config, SmMemoryCounters& counters,
          SmMemoryCompletions& completions);

  /// True when sub-partition `smsp` may enqueue an instruction now.
  bool can_accept(int smsp) const;

  /// Enqueues op (warp_slot, op_id) of sub-partition `smsp` at cycle `now` and starts what can
  /// start by `now`. Throws warpsim::InputError for a shared access of an unsupported width.
  void issue(std::uint32_t warp_slot, std::uint32_t op_id, int smsp, MioKind kind,
             const WarpAccess& access, engine::Cycle now);

  /// Adds a matrix instruction's `bytes` of shared-memory operands (one wavefront per banks ×
  /// bank width bytes) to the reads the data path owes; returns the earliest cycle they can end.
  engine::Cycle read_operands(std::uint32_t bytes, engine::Cycle now);

  /// Queues the data of load (warp_slot, op_id) of sub-partition `smsp`, `wavefronts` lines of
  /// it, ready at the L1 at cycle `ready`: the load completes once the data path has moved it. A
  /// store's data on its way out (l1_store_data_uses_shared_path) takes the same turn.
  void return_load_data(std::uint32_t warp_slot, std::uint32_t op_id, int smsp, int wavefronts,
                        engine::Cycle ready);

  /// Starts every queued access whose start cycle is at or before `now`.
  void advance(engine::Cycle now);

  /// The next cycle at which a queued access can start, or engine::kSleep when none is queued.
  engine::Cycle next_cycle() const;

  /// Instructions waiting in the queues, load returns included.
  int queued() const { return queued_ + returns_queued_; }

  /// Wavefronts and conflicts of a shared access (widths above 16 bytes are split into 16-byte
  /// pieces, each costed separately). Throws warpsim::InputError for an unsupported width.
  SharedAccessCost shared_cost(const WarpAccess& access) const;

 private:
  struct Entry {
    std::uint32_t warp_slot = 0;
    std::uint32_t op_id = 0;
    engine::Cycle enqueued = 0;
    int wavefronts = 1;
    int latency = 1;
  };
  // A load's data waiting for the data path, ordered by the cycle it was ready.
  struct Return {
    Entry entry;
    std::uint64_t sequence = 0;  // ties: the order of return_load_data calls
  };
  static bool later(const Return& a, const Return& b) {
    return a.entry.enqueued != b.entry.enqueued ? a.entry.enqueued > b.entry.enqueued
                                                : a.sequence > b.sequence;
  }
  // A fixed-capacity FIFO per sub-partition, and its loads' data (unbounded: the LSU's ops
  // bound it).
  struct Queue {
    std::vector<Entry> slots;
    int head = 0;
    int size = 0;
    std::vector<Return> returns;  // a min-heap on (enqueued, sequence)
    const Entry& front() const { return slots[static_cast<std::size_t>(head)]; }
    // The cycle its next client (access or load data) is ready; engine::kSleep when none.
    engine::Cycle next_ready() const;
  };

  // Distinct addresses among the active lanes (constant-cache serialisation).
  static int distinct_addresses(const WarpAccess& access);
  // Starts the sub-partition's client ready first, its access on a tie.
  void start_next(Queue& queue, engine::Cycle at);
  void start(Queue& queue, engine::Cycle at);
  void start_entry(const Entry& entry, engine::Cycle at);
  // Pays the operand backlog with the cycles the path was idle before `at`.
  void settle_operand_reads(engine::Cycle at);

  const SmMemoryConfig& config_;
  SharedMemoryBanks banks_;
  SmMemoryCounters& counters_;
  SmMemoryCompletions& completions_;
  std::vector<Queue> queues_;
  int queued_ = 0;
  int returns_queued_ = 0;
  std::uint64_t return_sequence_ = 0;
  int round_robin_ = 0;  // sub-partition served first at the next start
  engine::Cycle data_path_free_ = 0;  // first cycle the data path is free
  std::uint64_t operand_backlog_ = 0;  // matrix-operand wavefronts the data path still owes
  engine::Cycle operand_settled_ = 0;  // cycle up to which idle time has paid the backlog
};

inline bool MioPipe::can_accept(int smsp) const {
  return queued_ < config_.mio_queue_depth_per_sm &&
         queues_[static_cast<std::size_t>(smsp)].size < config_.mio_queue_depth_per_smsp;
}

}  // namespace warpsim::core
