// The engine's schedule of self-requested cycles: an indexed min-heap holding at most one entry per
// component, the cycle its latest tick asked for.
//
// Keys are (time, component id); ids are unique, so the order in which entries leave the queue is a
// total order that does not depend on the order of insertions. A component's entry is moved in
// place when its request changes, so the queue never holds stale entries and never grows beyond the
// number of components. No allocation after `resize`.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/clock_domain.h"

namespace warpsim::engine {

/// Dense component index assigned by the engine.
using ComponentId = std::uint32_t;

/// Indexed binary min-heap of (time, id) with arbitrary key updates and removal.
class EventQueue {
 public:
  /// Makes room for ids 0 .. n-1; the queue must be empty.
  void resize(std::size_t n);

  /// True when no wake-up is pending.
  bool empty() const { return heap_.empty(); }
  /// Number of pending wake-ups.
  std::size_t size() const { return heap_.size(); }
  /// True when `id` has a pending wake-up.
  bool contains(ComponentId id) const { return pos_[id] != kAbsent; }
  /// The pending wake-up time of `id`; requires contains(id).
  Time time_of(ComponentId id) const { return heap_[pos_[id]].time; }

  /// Earliest pending time; requires !empty().
  Time top_time() const { return heap_.front().time; }
  /// Id with the earliest (time, id); requires !empty().
  ComponentId top_id() const { return heap_.front().id; }
  /// Removes and returns the id with the earliest (time, id); requires !empty().
  ComponentId pop();

  /// Sets the entry of `id` to `time`, inserting it when absent.
  void set(ComponentId id, Time time);
  /// Removes the entry of `id` if present.
  void remove(ComponentId id);

 private:
  struct Entry {
    Time time;
    ComponentId id;
  };
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  static bool before(const Entry& a, const Entry& b) {
    return a.time < b.time || (a.time == b.time && a.id < b.id);
  }
  void sift_up(std::size_t i);
  void sift_down(std::size_t i);
  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.id] = static_cast<std::uint32_t>(i);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> pos_;
};

}  // namespace warpsim::engine
