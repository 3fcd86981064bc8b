// The L2 request coalescer (LRC) in front of an L2 slice: a read that asks only for sectors an
// earlier read of the same line, from an SM of the same source (the slice's L2SliceConfig says
// which SMs share one: on GH100 a GPC), is still waiting for joins that read instead of being
// looked up, and is answered when it is (Nsight Compute on Hopper:
// lrc__request_sectors_op_read_coalescable, lrc__request_sectors_op_read_coalescing_achieved_type_
// hardware; a FlashAttention forward whose CTAs load the same K and V blocks at once coalesces
// two thirds of its read sectors, validate/reference/h200/lrc_by_point.txt).
//
// Model. A direct-mapped table of `entries` slots indexed by (line, requester's source). A read
// looked up at the slice leads a slot when the slot is free; the slot stays open until the
// leader's response is ready to leave. A later read of the same line and source whose sectors
// the leader asked for joins it (up to `followers` per slot): it costs the slice no lookup and no
// lts__ counts, and is answered in the leader's cycle, whether it joins before or after that
// cycle is known. A read that finds its line's slot full is looked up, and leads the next group
// of the line: the full group waits aside for its leader (on the H200 a line in flight takes 3
// followers, and K readers of it coalesce in groups of 4, validate/reference/h200/
// lrc_crowd.tsv). A write, atomic or reduction of the line closes the slot. Without `joins_hits`
// a read that hits closes its slot at once. On the H200 reads of a line in flight from DRAM join
// (validate/reference/h200/lrc_pair.tsv), and so do reads of a line that hits while they come
// within about 100-150 ns of the first (lrc_hits.tsv), so the GH100 presets set it.
//
// Left out: the coalescer's own bandwidth and queueing, programmatic (multicast) coalescing,
// partial joins (a read needing one more sector goes to the slice whole) and the LRC's write
// compression.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/clock_domain.h"
#include "sim/mem/mem_request.h"

namespace warpsim::mem {

/// Size of the coalescer; 0 entries: none.
struct RequestCoalescerConfig {
  std::uint32_t entries = 0;     ///< slots (lines in flight that later reads can join)
  std::uint32_t followers = 8;   ///< reads that can join one slot
  std::uint32_t sources = 1;     ///< groups of SMs whose reads may join each other's
  /// Whether a read that hits in the L2 leads a slot that later reads join until its answer
  /// leaves (false: only reads waiting on a fetch take joins).
  bool joins_hits = true;
};

/// One slice's coalescer.
class RequestCoalescer {
 public:
  explicit RequestCoalescer(const RequestCoalescerConfig& config);

  /// True when the coalescer has slots.
  bool enabled() const { return !slots_.empty(); }

  /// A read from source `source` arrived at `now`: joins an open slot and returns true (with
  /// `answer(request, leader's cycle)` called now when that cycle is already known), or returns
  /// false when the read must be looked up.
  template <class Answer>
  bool join(const MemRequest& request, std::uint32_t source, engine::Cycle now,
            Answer&& answer) {
    if (slots_.empty()) return false;
    Slot& s = slot(request.line_address, source);
    if (!open(s, request.line_address, source, now) || (request.sector_mask & ~s.sectors) != 0) {
      return false;
    }
    if (s.ready != kUnknown) {
      answer(request, s.ready);  // open(): still ahead of now
    } else if (s.waiting < config_.followers) {
      waiting_[index(s) * config_.followers + s.waiting++] = request;
      ++waiting_total_;
    } else {
      return false;
    }
    return true;
  }

  /// A read of source `source` was looked up at `now`: it leads its slot when the slot is
  /// free.
  void lead(const MemRequest& request, std::uint32_t source, engine::Cycle now);

  /// A request that changes the line (write, atomic, reduction) was looked up: its slots take no
  /// more joins (reads already waiting are answered with their leader).
  void close(std::uint64_t line_address);

  /// The slice answered `request` (of source `source`) for cycle `ready`, from a hit or after
  /// a fetch: when it leads a slot, its joined reads are answered for the same cycle and the slot
  /// stays open until then (a hit's closes now unless joins_hits).
  template <class Answer>
  void answered(const MemRequest& request, std::uint32_t source, engine::Cycle ready, bool hit,
                Answer&& answer) {
    if (slots_.empty()) return;
    Slot& s = slot(request.line_address, source);
    if (!s.used || s.line != request.line_address || s.source != source ||
        s.leader_id != request.id || s.leader_sm != request.source_sm || s.ready != kUnknown) {
      if (parked_count_ > 0) answer_parked(request, source, ready, answer);
      return;
    }
    s.ready = ready;
    const std::size_t base = index(s) * config_.followers;
    for (std::uint32_t i = 0; i < s.waiting; ++i) answer(waiting_[base + i], ready);
    waiting_total_ -= s.waiting;
    s.waiting = 0;
    if (hit && !config_.joins_hits) s.used = false;  // closed: only lines in flight take joins
  }

  /// Reads waiting for a leader's answer (they keep the slice busy).
  std::uint64_t waiting() const { return waiting_total_; }

  /// Full groups set aside for a read that leads the next group of their line.
  std::uint32_t parked() const { return parked_count_; }

 private:
  static constexpr engine::Cycle kUnknown =
      engine::kSleep;  ///< the leader's answer is not known yet

  struct Slot {
    std::uint64_t line = 0;
    std::uint64_t leader_id = 0;
    engine::Cycle ready = kUnknown;  ///< the leader's answer cycle, once known
    std::uint32_t leader_sm = 0;
    std::uint32_t source = 0;
    std::uint32_t waiting = 0;
    std::uint8_t sectors = 0;
    bool used = false;
  };

  /// A full group whose slot a later read of its line took over: it waits for its leader aside.
  struct Parked {
    std::uint64_t line = 0;
    std::uint64_t leader_id = 0;
    std::uint32_t leader_sm = 0;
    std::uint32_t source = 0;
    bool used = false;
  };

  template <class Answer>
  void answer_parked(const MemRequest& request, std::uint32_t source, engine::Cycle ready,
                     Answer& answer) {
    for (std::size_t g = 0; g < parked_.size(); ++g) {
      Parked& p = parked_[g];
      if (!p.used || p.leader_id != request.id || p.line != request.line_address ||
          p.source != source || p.leader_sm != request.source_sm) {
        continue;
      }
      const std::size_t base = g * config_.followers;
      for (std::uint32_t i = 0; i < config_.followers; ++i)
        answer(parked_waiting_[base + i], ready);
      waiting_total_ -= config_.followers;
      p.used = false;
      --parked_count_;
      return;
    }
  }

  Slot& slot(std::uint64_t line_address, std::uint32_t source);
  /// Sets the full group of `s` aside (its waiters keep their order).
  void park(Slot& s);
  std::size_t index(const Slot& s) const { return static_cast<std::size_t>(&s - slots_.data()); }
  /// True when `s` is open for `line` and `source` at `now` (a slot past its answer is free).
  static bool open(const Slot& s, std::uint64_t line, std::uint32_t source, engine::Cycle now) {
    return s.used && s.line == line && s.source == source &&
           (s.ready == kUnknown || s.ready > now);
  }

  RequestCoalescerConfig config_;
  std::vector<Slot> slots_;
  std::vector<MemRequest> waiting_;  // followers per slot
  std::uint64_t waiting_total_ = 0;
  std::vector<Parked> parked_;              // reused once answered
  std::vector<MemRequest> parked_waiting_;  // followers per parked group
  std::uint32_t parked_count_ = 0;
};

}  // namespace warpsim::mem
