// One HBM channel (pseudo-channel): bank groups and banks with open rows, the core timing
// constraints between commands, a shared data bus, read and write queues with write draining, and
// a replaceable command scheduler (dram_scheduler.h).
//
// Fidelity. One command per memory cycle. A request (one line, a sector mask) needs one column
// command per sector; a sector is one burst of `burst_length` beats on a bus of
// `bytes_per_cycle` per memory clock (two beats per clock), which must come to 32 bytes.
// Constraints, all in memory clock cycles:
//   ACT -> RD/WR of the bank       tRCD        ACT -> PRE of the bank      tRAS
//   PRE -> ACT of the bank         tRP         RD -> PRE of the bank       tRTP
//   WR data end -> PRE of the bank tWR         ACT -> ACT, other / same bank group  tRRD_S / tRRD_L
//   any four ACTs                  tFAW        RD/WR -> RD/WR, other / same group   tCCD_S / tCCD_L
//   WR data end -> RD              tWTR        RD -> WR                     tRTW
//   RD -> data                     CL          WR -> data                   CWL
// and the data bus carries one burst at a time, left idle for `request_gap_cycles` after each
// request's last burst (the controller's cost per request, whatever its sector count). Rows stay
// open until a request to another row of the bank needs a PRE (open-row policy). Reads wait in the
// read queue; the channel serves writes when the write queue reaches `write_drain_high` (until it
// falls to `write_drain_low`) or when no read waits. Achievable bandwidth therefore emerges from
// row locality, bank parallelism and the timings; nothing scales it by a constant efficiency.
//
// Deferred writes. With `deferred_write_share` set, a deferrable write (the write-back of a line
// that stays in the L2) waits aside, without limit, and joins the write queue when it has room:
// at once while no read waits, else `deferred_write_share` of them per read the channel takes.
// The GPU's L2 holds such lines dirty while the DRAM is busy with reads: the write-backs of the
// partly written lines it gives up trail their fills by up to 20 k cycles
// (validate/reference/h200/partial_tail_h100.tsv), and a launch ends with many of them unwritten.
//
// Timing contract: a read request visible at the channel at cycle t whose row is open, with the
// bus and bank free, is answered at t + CL + burst cycles (visible at the response port's
// receiver); a closed bank adds tRCD, an open other row adds tRP + tRCD. Writes are posted (no
// response). Counts dram__bytes_read.sum, dram__bytes_write.sum, activates, row hits / misses.
//
// Refresh (when refi_cycles > 0): every tREFI the channel stops issuing, precharges the open banks
// and refreshes all banks for tRFC. With rfcpb_cycles (per-bank refresh, HBM3's REFpb), every
// tREFI / banks the next bank in turn is precharged (once its row may close) and refreshed for
// tRFCpb while the other banks keep working. A refresh that falls due while the channel is idle is
// applied when the channel next wakes, as if it had run on time (an idle channel is never ticked
// for it).
//
// Ticks. A channel whose scheduler picks nothing sleeps until the scheduler could pick
// (DramScheduler::next_pick), a request arrives or a response can leave; a tick that finds only
// new requests before then looks at those alone. While requests wait in the port for room in a
// full queue it wakes whenever any command's timing allows, when a full tick would take them, so
// the results are those of a channel that looked at its whole queue every cycle.
//
// Left out: power-down, refresh-management commands and the spacing between per-bank refreshes
// (tRREFD), ECC, the command/address bus split of HBM
// (row and column commands share one slot per cycle here) and the TSV / PHY latency, which the
// interconnect's latency may absorb.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/component.h"
#include "sim/engine/ring_buffer.h"
#include "sim/mem/address_mapping.h"
#include "sim/mem/dram_scheduler.h"
#include "sim/mem/mem_link.h"

namespace warpsim::mem {

/// Core timings in memory clock cycles. The defaults are illustrative HBM3-class values at a
/// 3.2 GHz memory clock; presets supply the real ones.
struct DramTiming {
  std::uint32_t rcd_cycles = 45;   ///< tRCD: ACT to RD/WR
  std::uint32_t rp_cycles = 45;    ///< tRP: PRE to ACT
  std::uint32_t ras_cycles = 105;  ///< tRAS: ACT to PRE
  std::uint32_t cl_cycles = 45;    ///< CL (tCAS): RD to first data
  std::uint32_t cwl_cycles = 12;   ///< CWL: WR to first data
  std::uint32_t ccd_s_cycles = 2;  ///< tCCD_S: column to column, other bank group
  std::uint32_t ccd_l_cycles = 4;  ///< tCCD_L: column to column, same bank group
  std::uint32_t rrd_s_cycles = 6;  ///< tRRD_S: ACT to ACT, other bank group
  std::uint32_t rrd_l_cycles = 8;  ///< tRRD_L: ACT to ACT, same bank group
  std::uint32_t faw_cycles = 48;   ///< tFAW: window holding at most four ACTs
  std::uint32_t wr_cycles = 50;    ///< tWR: end of write data to PRE
  std::uint32_t wtr_cycles = 24;   ///< tWTR: end of write data to RD
  std::uint32_t rtp_cycles = 16;   ///< tRTP: RD to PRE
  std::uint32_t rtw_cycles = 18;   ///< tRTW: RD to WR
  std::uint32_t refi_cycles = 0;   ///< tREFI: interval between all-bank refreshes; 0 = none
  std::uint32_t rfc_cycles = 0;    ///< tRFC: all-bank refresh to ACT
  /// tRFCpb: per-bank refresh to ACT of that bank; nonzero: banks refresh one at a time, in turn,
  /// one every tREFI / banks (the others keep working), instead of all-bank refreshes.
  std::uint32_t rfcpb_cycles = 0;
  /// Data-bus cycles idle after a request's last burst before the next request's first burst.
  std::uint32_t request_gap_cycles = 0;
};

/// One channel's timings, bus and queues.
struct DramChannelConfig {
  DramTiming timing{};
  std::uint32_t bytes_per_cycle = 16;      ///< data bus bytes per memory clock (both edges)
  std::uint32_t burst_length = 4;          ///< beats per burst; × bytes_per_cycle / 2 = 32 B
  std::uint32_t read_queue_entries = 64;   ///< reads waiting (and answered, not yet sent)
  std::uint32_t write_queue_entries = 64;  ///< writes waiting
  std::uint32_t write_drain_high = 48;     ///< start draining writes at this many
  std::uint32_t write_drain_low = 16;      ///< stop draining at this many (when reads wait)
  /// Deferrable writes that join the write queue per read taken while reads wait; 0: none are
  /// held (they queue as any write).
  double deferred_write_share = 0;
  std::string scheduler = "frfcfs";        ///< registered DramScheduler name
};

/// Counters of one channel.
struct DramCounters {
  std::uint64_t bytes_read = 0;       ///< dram__bytes_read.sum
  std::uint64_t bytes_written = 0;    ///< dram__bytes_write.sum
  std::uint64_t reads = 0;            ///< read requests answered
  std::uint64_t writes = 0;           ///< write requests completed
  std::uint64_t activates = 0;        ///< ACT commands
  std::uint64_t precharges = 0;       ///< PRE commands
  std::uint64_t row_hits = 0;         ///< requests whose first command was RD/WR
  std::uint64_t row_misses = 0;       ///< requests whose first command was ACT (bank closed)
  std::uint64_t row_conflicts = 0;    ///< requests whose first command was PRE (other row open)
  std::uint64_t bus_busy_cycles = 0;  ///< cycles the data bus carried data
  std::uint64_t refreshes = 0;        ///< all-bank refreshes
};

/// The channel component.
class DramChannel final : public engine::Component {
 public:
  /// `index` is the channel number under `mapping` (which must outlive the channel). Throws
  /// warpsim::InputError naming `dram.<field>` when the config is invalid.
  DramChannel(std::string name, const engine::ClockDomain& domain, const DramChannelConfig& config,
              const AddressMapping& mapping, std::uint32_t index);
  ~DramChannel() override;

  /// Wires the requester side: the channel pops `link.request` and answers reads on
  /// `link.response`.
  void set_upstream(const MemLink& link);

  engine::Cycle tick(engine::Cycle now) override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

  /// Counters.
  const DramCounters& counters() const { return counters_; }
  /// Cycles one burst occupies the data bus.
  std::uint32_t burst_cycles() const { return burst_cycles_; }
  /// The configuration.
  const DramChannelConfig& config() const { return config_; }

 private:
  // What the scheduler reads of a queued request, packed (two per cache line): every tick scans
  // the whole queue. The request itself waits in a parallel queue until it completes.
  struct Entry {
    std::uint32_t bank = 0;  // flat index: group × banks_per_group + bank
    std::uint32_t bank_group = 0;
    std::uint64_t row = 0;
    std::uint64_t age = 0;
    std::uint8_t remaining = 0;
    bool classified = false;
  };
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    engine::Cycle next_act = 0;
    engine::Cycle next_pre = 0;
    engine::Cycle next_column = 0;
  };
  struct Pending {
    engine::Cycle ready = 0;
    MemResponse response{};
  };

  // The channel-wide lower bounds of a column command (bus, tCCD_S, tWTR / tRTW) and of an ACT
  // (tRRD_S, tFAW) this tick, shared by every candidate.
  struct CandidateBounds {
    engine::Cycle column = 0;
    engine::Cycle activate = 0;
  };

  void accept();
  // Queues `request` (a read or a write with room) for the scheduler.
  void enqueue(const MemRequest& request);
  CandidateBounds candidate_bounds(bool writes) const;
  DramCandidate candidate_for(std::uint32_t index, const Entry& entry, bool writes,
                              const CandidateBounds& bounds) const;
  // The scheduling of one tick: the queue's candidates, the scheduler's pick, and the command
  // issued (returns now + 1) or pick_wait_ set (returns kSleep).
  engine::Cycle schedule(engine::Cycle now, bool writes, bool bank_refresh_due);
  // True while the last full scan's wait still holds (see pick_wait_), after looking at the
  // requests that arrived since.
  bool still_waiting(engine::Cycle now, bool writes, const std::vector<Entry>& queue);
  void issue(const DramCandidate& candidate, engine::Cycle now, bool writes);
  void catch_up_refresh(engine::Cycle now);
  engine::Cycle refresh_step(engine::Cycle now);
  // Per-bank refresh due: precharges or refreshes the bank in turn if its timing allows now
  // (returns now + 1: that was this cycle's command), else returns the cycle it will.
  engine::Cycle bank_refresh_step(engine::Cycle now);

  DramChannelConfig config_;
  const AddressMapping* mapping_;
  std::uint32_t index_;
  std::unique_ptr<DramScheduler> scheduler_;
  std::uint32_t burst_cycles_;
  std::uint64_t out_latency_cycles_ = 1;
  MemLink upstream_{};
  std::vector<Entry> reads_;   // arrival order, capacity reserved
  std::vector<Entry> writes_;  // arrival order, capacity reserved
  std::vector<MemRequest> read_requests_;   // reads_[i]'s request
  std::vector<MemRequest> write_requests_;  // writes_[i]'s request
  // Deferrable writes not yet queued, oldest first from deferred_head_ (a vector reused as a
  // queue: it keeps its capacity, so a steady flow of them allocates nothing).
  std::vector<MemRequest> deferred_;
  std::size_t deferred_head_ = 0;
  double deferred_credit_ = 0;  // deferred writes the reads taken let join
  bool draining_ = false;
  std::uint64_t next_age_ = 0;
  std::vector<Bank> banks_;
  std::vector<engine::Cycle> next_act_group_;     // tRRD_L per bank group
  std::vector<engine::Cycle> next_column_group_;  // tCCD_L per bank group
  std::vector<std::uint8_t> hit_queued_;          // per bank, scratch of a tick with a PRE
  std::vector<DramCandidate> candidates_;         // scratch of one tick
  // What the last full scan found when the scheduler picked nothing: the first cycle it could pick
  // (DramScheduler::next_pick), for the queue it served and that queue's length then. Until that
  // cycle, a tick that finds only new requests (arrivals, which cannot make an older candidate
  // ready sooner) or none (a returned credit) looks at the new ones alone. Any command issued,
  // refresh step or change of queue forgets it.
  struct PickWait {
    bool valid = false;
    bool writes = false;
    std::size_t scanned = 0;
    engine::Cycle until = 0;      ///< the scheduler's next pick
    engine::Cycle until_any = 0;  ///< the first cycle any candidate's timing allows
  } pick_wait_;
  engine::Cycle next_act_any_ = 0;
  engine::Cycle next_column_any_ = 0;
  engine::Cycle next_read_ = 0;                 // tWTR
  engine::Cycle next_write_ = 0;                // tRTW
  engine::Cycle bus_free_ = 0;                  // first cycle the data bus is free
  std::array<engine::Cycle, 4> recent_acts_{};  // ring of the last four ACT cycles
  std::uint32_t act_count_ = 0;
  engine::Cycle next_refresh_ = engine::kSleep;  // cycle the next refresh falls due
  engine::Cycle refresh_interval_ = 0;           // tREFI, or tREFI / banks per bank
  std::uint32_t refresh_bank_ = 0;               // per-bank refresh: the bank next in turn
  engine::RingBuffer<Pending> responses_;        // read answers in data order
  DramCounters counters_;
};

}  // namespace warpsim::mem
