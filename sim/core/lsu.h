// The LSU path of an SM: global and local loads, stores, atomics and reductions, from the
// per-sub-partition LSU queues through the L1's tag stage (t-stage) and MSHRs to the port to the
// memory system, and back.
//
// Timing. An instruction is coalesced at issue (Coalescer: its 128 B lines with their 32 B
// sectors) and waits in its sub-partition's queue; the tag stage takes one instruction at a time
// (round robin over the sub-partitions) and looks up `l1_tag_sectors_per_cycle` sectors per cycle,
// at least one cycle per instruction, so 32 sectors take 8 cycles at 4 per cycle, and at most
// `l1_tag_lines_per_cycle` lines per cycle when set (one on the H200: a warp load touching n lines
// takes n cycles, validate/reference/h200/l1_lines.tsv). A line is looked
// up in the cycle its last sector is processed:
//  - load: sectors valid and not in flight hit, ready l1_hit_latency_cycles later; the others wait
//    on the line's MSHR entry (merging into one already in flight, else allocating one), and the
//    sectors neither valid nor in flight are requested with one read per line, sent that cycle.
//    A load completes when all its sectors are ready; a filled sector is ready
//    l1_fill_latency_cycles after its response arrives. An uncontended miss therefore completes
//    request-port latency + memory-system time + response-port latency + l1_fill_latency_cycles
//    after issue, plus the tag-stage cycles before the line's lookup.
//  - store: one write-through request per line with its sectors and exact byte count; the line is
//    installed in the L1 with the stored sectors (l1_cache.h); the instruction completes (has left
//    the SM) l1_store_complete_cycles after its last request is sent (1: the next cycle), its
//    data first passing the shared-memory data path with l1_store_data_uses_shared_path. Only a
//    finished warp waits for that (stall `drain`): no register waits on a global store. The memory system acknowledges each write
//    request (and each reduction); the LSU counts every warp's writes not yet acknowledged, which
//    a GPU-scope fence waits for (unacknowledged_writes, notify_acknowledged).
//  - atomic: one request per line to the L2, each holding an unmergeable MSHR entry; completes
//    when every response has arrived (+ l1_fill_latency_cycles). Reduction: like a store.
// Every completion lies at least one cycle after the instruction's issue.
// A lookup that needs an MSHR entry or merge slot that is not free, or a port that is full, stalls
// the tag stage until a response frees one (or a credit returns); the queues then fill and the
// core sees lg_throttle. Instructions without recorded lane addresses take one tag-stage cycle and
// are timed as hits, with no traffic.
//
// With l1_load_data_uses_shared_path, a load's data then passes the shared-memory data path
// (MioPipe::return_load_data, one wavefront per line) before the load completes; with
// l1_store_data_uses_shared_path, a store's or reduction's data does the same before it counts
// as having left the SM.
//
// Left out: the texture path, L1 write-back of local memory, atomics' extra t-stage passes,
// sector-granular bandwidth of the data stage and of the miss path beyond the port's capacity.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/l1_cache.h"
#include "sim/core/l1_mshr.h"
#include "sim/core/lsu_lines.h"
#include "sim/core/mio_pipe.h"
#include "sim/core/sm_memory_access.h"
#include "sim/core/sm_memory_completions.h"
#include "sim/core/sm_memory_config.h"
#include "sim/core/sm_memory_counters.h"
#include "sim/engine/port.h"
#include "sim/mem/mem_request.h"

namespace warpsim::core {

/// What an LSU instruction does.
enum class LsuKind : std::uint8_t { kLoad, kStore, kAtomic, kReduction };
/// The address space an LSU instruction is counted under.
enum class LsuSpace : std::uint8_t { kGlobal, kLocal };

/// The LSU queues, L1 tag stage, MSHRs and miss path of one SM.
class Lsu {
 public:
  /// `config` must be valid; every reference must outlive the LSU. Requests leave on `requests`,
  /// whose sender must be the SM component calling advance(). Loads' data passes `data_path`
  /// when config.l1_load_data_uses_shared_path is set.
  Lsu(const SmMemoryConfig& config, SmMemoryCounters& counters, SmMemoryCompletions& completions,
      engine::Port<mem::MemRequest>& requests, MioPipe& data_path);

  /// Starts a kernel: a cold L1 of the capacity the carve-out leaves. Throws
  /// warpsim::InternalError when anything is in flight and warpsim::InputError for a carve-out
  /// above the unified capacity.
  void begin_kernel(std::uint64_t carveout_bytes);

  /// True when sub-partition `smsp` may enqueue an instruction now.
  bool can_accept(int smsp) const;

  /// Coalesces and enqueues op (warp_slot, op_id) of sub-partition `smsp` at cycle `now`, then runs
  /// the tag stage up to `now`. Throws warpsim::InputError for an unsupported width.
  void issue(std::uint32_t warp_slot, std::uint32_t op_id, int smsp, LsuKind kind, LsuSpace space,
             const WarpAccess& access, engine::Cycle now);

  /// A response from the memory system, arrived at cycle `now`. Throws warpsim::InternalError for
  /// a response that matches no request.
  void on_response(const mem::MemResponse& response, engine::Cycle now);

  /// Runs the tag stage for every cycle up to `now`.
  void advance(engine::Cycle now);

  /// The next cycle the tag stage has work for, or engine::kSleep when it waits for a response or
  /// a port credit (both wake the SM) or has nothing to do.
  engine::Cycle next_cycle() const;

  /// True when no instruction is queued, in the tag stage or waiting for memory.
  bool idle() const { return queued_ == 0 && free_ops_.size() == ops_.size(); }

  /// Writes (store and reduction requests) of warp `warp_slot` sent and not yet acknowledged.
  std::uint32_t unacknowledged_writes(std::uint32_t warp_slot) const {
    return writes_[warp_slot].unacknowledged;
  }
  /// Writes of all warps sent and not yet acknowledged.
  std::uint64_t unacknowledged_writes() const { return unacknowledged_; }
  /// Schedules an acknowledgement notice (SmMemoryCompletions::schedule_acknowledged) for warp
  /// `warp_slot` once its writes are all acknowledged: at `now` if they are already.
  void notify_acknowledged(std::uint32_t warp_slot, engine::Cycle now);

  /// The L1 tags of the current kernel.
  const L1Cache& l1() const { return l1_; }
  /// The MSHR table.
  const L1MshrTable& mshrs() const { return mshrs_; }

 private:
  // A queued instruction, coalesced.
  struct Request {
    std::uint32_t warp_slot = 0;
    std::uint32_t op_id = 0;
    engine::Cycle enqueued = 0;
    LsuKind kind = LsuKind::kLoad;
    LsuSpace space = LsuSpace::kGlobal;
    bool addressed = true;
    LsuLines lines;
  };
  struct Queue {
    std::vector<Request> slots;
    int head = 0;
    int size = 0;
    Request& front() { return slots[static_cast<std::size_t>(head)]; }
    const Request& front() const { return slots[static_cast<std::size_t>(head)]; }
  };
  // A warp slot's writes in flight to the memory system.
  struct WarpWrites {
    std::uint32_t unacknowledged = 0;
    bool notify = false;  // an acknowledgement notice is owed when the count reaches zero
  };
  // An instruction past the queue that has not completed.
  struct Op {
    std::uint32_t warp_slot = 0;
    std::uint32_t op_id = 0;
    engine::Cycle ready = 0;  // latest ready cycle of its lines so far
    int pending = 0;          // lines waiting on MSHR entries
    int lines = 0;            // data-path wavefronts before it completes; 0: none
    int smsp = 0;             // the sub-partition that issued it
  };

  void count_request(const Request& request);
  /// The data-path wavefronts `request` takes before it completes (one per line when its kind's
  /// data uses the shared-memory data path, else 0).
  int data_path_lines(const Request& request) const;
  engine::Cycle earliest_start() const;
  void run_stage_cycle(engine::Cycle at);
  bool lookup(const Request& request, const LsuLine& line, engine::Cycle at);
  bool lookup_load(const Request& request, const LsuLine& line, engine::Cycle at);
  void send(const mem::MemRequest& request, engine::Cycle at);
  void finish_stage_op(engine::Cycle at);
  void op_line_done(std::uint32_t op, engine::Cycle ready);
  // Completes op `index` at op.ready, through the data path for a load's data, and frees it.
  void complete(std::uint32_t index);

  const SmMemoryConfig& config_;
  SmMemoryCounters& counters_;
  SmMemoryCompletions& completions_;
  engine::Port<mem::MemRequest>& requests_;
  MioPipe& data_path_;
  LsuLineBuilder lines_;
  L1Cache l1_;
  L1MshrTable mshrs_;
  std::vector<Queue> queues_;
  int queued_ = 0;
  int round_robin_ = 0;
  std::vector<Op> ops_;
  std::vector<std::uint32_t> free_ops_;
  std::vector<WarpWrites> writes_;  // by warp slot
  std::uint64_t unacknowledged_ = 0;  // their unacknowledged writes together
  // Tag stage.
  int stage_queue_ = -1;          // sub-partition whose head is in the stage, or -1
  std::uint32_t stage_op_ = 0;    // its Op
  int line_index_ = 0;            // next line to look up
  int sectors_left_ = 0;          // sectors of that line not yet processed
  engine::Cycle next_stage_ = 0;  // first cycle the stage can work
  bool mshr_stalled_ = false;     // waiting for a response to free an MSHR entry or slot
  bool port_blocked_ = false;     // waiting for a request-port credit
};

inline bool Lsu::can_accept(int smsp) const {
  return queued_ < config_.lsu_queue_depth_per_sm &&
         queues_[static_cast<std::size_t>(smsp)].size < config_.lsu_queue_depth_per_smsp;
}

}  // namespace warpsim::core
