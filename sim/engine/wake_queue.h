// The engine's schedule of owed wake-ups: message arrivals, returned credits and explicit wakes.
//
// Unlike a component's self-requested cycle (one per component, replaced by each tick), every
// wake-up here is owed: the component must be ticked at that cycle even if it ticks earlier in
// between. Entries leave in (time, component id) order, so equal entries are adjacent and the order
// does not depend on insertion order. A binary heap on a vector that keeps its storage.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/engine/clock_domain.h"
#include "sim/engine/event_queue.h"

namespace warpsim::engine {

/// One owed wake-up: component `id` at `cycle` of its domain, which starts at `time`.
struct Wake {
  Time time;
  ComponentId id;
  Cycle cycle;
};

/// Min-heap of Wake by (time, id); duplicates allowed.
class WakeQueue {
 public:
  /// True when no wake-up is pending.
  bool empty() const { return heap_.empty(); }
  /// Number of pending wake-ups.
  std::size_t size() const { return heap_.size(); }
  /// The earliest wake-up; requires !empty().
  const Wake& top() const { return heap_.front(); }
  /// Adds a wake-up.
  void push(const Wake& w) {
    heap_.push_back(w);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  /// Removes and returns the earliest wake-up; requires !empty().
  Wake pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Wake w = heap_.back();
    heap_.pop_back();
    return w;
  }
  /// Rewrites every entry's id through `map` (old id -> new id) and restores the heap order.
  template <class Map>
  void remap_ids(const Map& map) {
    for (Wake& w : heap_) w.id = map[w.id];
    std::make_heap(heap_.begin(), heap_.end(), Later{});
  }

 private:
  // A function object rather than a function pointer, so the heap operations inline it.
  struct Later {
    bool operator()(const Wake& a, const Wake& b) const {
      return a.time > b.time || (a.time == b.time && a.id > b.id);
    }
  };
  std::vector<Wake> heap_;
};

}  // namespace warpsim::engine
