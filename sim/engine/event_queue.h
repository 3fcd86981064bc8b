// The engine's schedule of self-requested cycles: at most one entry per component, the cycle its
// latest tick asked for.
//
// Keys are (time, component id); ids are unique, so the order in which entries leave the queue is a
// total order that does not depend on the order of insertions. Entries are kept in buckets, one per
// distinct pending time (few: the components of one clock domain mostly ask for the same next
// edges), each a bitset over component ids, so that the components due at one instant leave in id
// order by a scan of a few words, and moving an entry costs a search over the bucket times instead
// of a heap sift. A component's entry is moved in place when its request changes, so the queue
// never holds stale entries. Bucket storage is recycled: no allocation in steady state.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/clock_domain.h"

namespace warpsim::engine {

/// Dense component index assigned by the engine.
using ComponentId = std::uint32_t;

/// Set of (time, id) entries, at most one per id, leaving in (time, id) order.
class EventQueue {
 public:
  /// Makes room for ids 0 .. n-1; the queue must be empty.
  void resize(std::size_t n);

  /// True when no wake-up is pending.
  bool empty() const { return size_ == 0; }
  /// Number of pending wake-ups.
  std::size_t size() const { return size_; }
  /// True when `id` has a pending wake-up.
  bool contains(ComponentId id) const { return time_[id] != kNever; }
  /// The pending wake-up time of `id`; requires contains(id).
  Time time_of(ComponentId id) const { return time_[id]; }

  /// Earliest pending time; requires !empty().
  Time top_time() const { return buckets_.back().time; }
  /// Id with the earliest (time, id); requires !empty().
  ComponentId top_id() const;
  /// Removes and returns the id with the earliest (time, id); requires !empty().
  ComponentId pop();

  /// Sets the entry of `id` to `time` (< kNever), inserting it when absent.
  void set(ComponentId id, Time time);
  /// Removes the entry of `id` if present.
  void remove(ComponentId id);

 private:
  struct Bucket {
    Time time = 0;
    std::uint32_t count = 0;
    std::uint32_t first_word = 0;  // no bit is set in the words before it
    std::vector<std::uint64_t> bits;
  };

  // Index of the bucket of `time`, or the position (from the back's side) where it belongs.
  std::size_t find(Time time) const;
  void erase_bucket(std::size_t index);

  std::vector<Bucket> buckets_;  // by time, latest first: the earliest is at the back
  std::vector<std::vector<std::uint64_t>> spare_;  // cleared bitsets of erased buckets
  std::vector<Time> time_;                         // per id; kNever when absent
  std::size_t words_ = 0;
  std::size_t size_ = 0;
};

}  // namespace warpsim::engine
