// The completion queue of an SM's memory pipeline: finished instructions ordered by the cycle at
// which they finish (ties by the order they were scheduled), reported to the issue core through its
// CompletionSink when that cycle comes, and likewise the news that a warp's writes are all
// acknowledged. A binary heap over a vector reserved once, so scheduling
// and delivering allocate nothing while the queue stays within its reserved size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/memory_pipeline.h"
#include "sim/engine/clock_domain.h"

namespace warpsim::core {

/// Instructions whose completion cycle is known, waiting for that cycle.
class SmMemoryCompletions {
 public:
  /// Reserves room for `n` pending completions.
  void reserve(std::size_t n) { heap_.reserve(n); }

  /// Schedules the completion of op `op_id` of warp `warp_slot` at cycle `at`.
  void schedule(engine::Cycle at, std::uint32_t warp_slot, std::uint32_t op_id) {
    heap_.push_back(Entry{at, sequence_++, warp_slot, op_id, false});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }

  /// Schedules CompletionSink::acknowledged for warp `warp_slot` at cycle `at`.
  void schedule_acknowledged(engine::Cycle at, std::uint32_t warp_slot) {
    heap_.push_back(Entry{at, sequence_++, warp_slot, 0, true});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }

  /// Reports every completion due at or before `now` to `sink` (at its own cycle, or `now` if
  /// that has passed), earliest first; returns how many.
  std::size_t deliver(engine::Cycle now, CompletionSink& sink) {
    std::size_t count = 0;
    while (!heap_.empty() && heap_.front().at <= now) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      const Entry entry = heap_.back();
      heap_.pop_back();
      if (entry.acknowledged) {
        sink.acknowledged(entry.warp_slot, now);
      } else {
        sink.complete(entry.warp_slot, entry.op_id, now);
      }
      ++count;
    }
    return count;
  }

  /// The earliest scheduled cycle, or engine::kSleep when none.
  engine::Cycle next() const { return heap_.empty() ? engine::kSleep : heap_.front().at; }
  /// Completions scheduled and not delivered.
  std::size_t size() const { return heap_.size(); }
  /// True when none is pending.
  bool empty() const { return heap_.empty(); }

 private:
  struct Entry {
    engine::Cycle at = 0;
    std::uint64_t sequence = 0;
    std::uint32_t warp_slot = 0;
    std::uint32_t op_id = 0;
    bool acknowledged = false;  // an acknowledgement notice, not a completion
  };
  // Heap order: the earliest (cycle, sequence) on top.
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.at != b.at ? a.at > b.at : a.sequence > b.sequence;
    }
  };

  std::vector<Entry> heap_;
  std::uint64_t sequence_ = 0;
};

}  // namespace warpsim::core
