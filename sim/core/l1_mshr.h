// The L1's miss status holding registers: one entry per line with sectors in flight to the memory
// system (or per atomic request, which never merges), each with a list of waiting instructions
// and the sectors each still needs.
//
// A lookup that misses sectors of a line with an entry merges into it (asking only for sectors not
// yet in flight); otherwise it allocates a free entry. A fill of some sectors satisfies the waiters
// that needed only those, and frees the entry once nothing it asked for is in flight. The waiters
// of all entries draw on one pool of records (`waiters`), and an entry may also cap its own list
// (`merge_slots`, 0: no cap): a GH100 L1 lets 32 warps' 128 loads wait on one line without a stall
// (validate/reference/h200/l1_merge_h100.tsv). Lines are found through an open-addressing index
// sized once, so nothing allocates after construction.
//
// With a sector budget (`max_sectors`, 0: none) the table also bounds the sectors requested from
// memory and not yet filled, over all entries: the L1 reserves room in its data array for each
// sector it fetches (validate/reference/h200/cta_timeline.txt: one SM's burst of 248 line loads
// against an idle memory system completes at about 20 B per cycle, about 512 sectors per HBM
// round trip, where the strided copy keeps 420 one-sector lines in flight per SM).
//
// Left out: per-sector request merging across different lines and entry reservation priorities.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace warpsim::core {

/// MSHR entries of one L1.
class L1MshrTable {
 public:
  /// No entry: the result of find() for a line without one.
  static constexpr int kNone = -1;

  /// A table of `entries` entries, each with room for `merge_slots` waiters (0: no cap per
  /// entry), all from a pool of `waiters` waiter records (0: `merge_slots` per entry, or 8 per
  /// entry without a cap), and at most `max_sectors` sectors in flight over all entries (0: no
  /// limit).
  L1MshrTable(int entries, int merge_slots, int max_sectors = 0, int waiters = 0);

  /// Waiter records of the pool, `waiters` as resolved by the constructor.
  static int waiter_pool(int entries, int merge_slots, int waiters);

  /// The entry tracking `line_address`, or kNone.
  int find(std::uint64_t line_address) const;
  /// True when an entry is free and a waiter record is left for its first waiter.
  bool has_free() const { return free_count_ > 0 && free_waiter_ != kNone; }
  /// True when `sectors` more sectors may be requested from memory within the sector budget.
  bool has_sector_room(int sectors) const {
    return max_sectors_ == 0 || sectors_in_flight_ + sectors <= max_sectors_;
  }
  /// Sectors requested from memory and not yet filled, over all entries.
  int sectors_in_flight() const { return sectors_in_flight_; }
  /// True when entry `entry` can take another waiter.
  bool can_merge(int entry) const {
    return (merge_slots_ == 0 || entries_[index(entry)].waiters < merge_slots_) &&
           free_waiter_ != kNone;
  }
  /// Waiter records in the pool.
  int waiter_capacity() const { return static_cast<int>(pool_.size()); }
  /// Sectors of entry `entry` in flight.
  std::uint8_t in_flight(int entry) const { return entries_[index(entry)].in_flight; }
  /// Entries in use.
  int used_count() const { return static_cast<int>(entries_.size()) - free_count_; }
  /// Total entries.
  int capacity() const { return static_cast<int>(entries_.size()); }
  /// True when `entry` names an entry in use.
  bool in_use(int entry) const {
    return entry >= 0 && entry < capacity() && entries_[index(entry)].used;
  }
  /// The line of entry `entry`.
  std::uint64_t line_address(int entry) const { return entries_[index(entry)].line_address; }
  /// Waiters of entry `entry`.
  int waiter_count(int entry) const { return entries_[index(entry)].waiters; }

  /// Allocates an entry for `line_address` (found by find() when `mergeable`; atomic requests are
  /// not) and returns it. Requires has_free().
  int allocate(std::uint64_t line_address, bool mergeable);
  /// Marks `sectors` of entry `entry` as requested from memory.
  void add_in_flight(int entry, std::uint8_t sectors) {
    Entry& e = entries_[index(entry)];
    sectors_in_flight_ += std::popcount(static_cast<unsigned>(sectors & ~e.in_flight & 0xFFu));
    e.in_flight |= sectors;
  }
  /// Adds waiter `op` needing `sectors` to entry `entry`. Requires can_merge(entry).
  void add_waiter(int entry, std::uint32_t op, std::uint8_t sectors);

  /// Sectors `sectors` of entry `entry` arrived: calls `done(op)` for each waiter that needs
  /// nothing more (in the order they joined), and frees the entry when nothing is in flight.
  template <class Fn>
  void fill(int entry, std::uint8_t sectors, Fn&& done) {
    Entry& e = entries_[index(entry)];
    sectors_in_flight_ -= std::popcount(static_cast<unsigned>(sectors & e.in_flight));
    e.in_flight &= static_cast<std::uint8_t>(~sectors);
    int kept_head = kNone, kept_tail = kNone, kept = 0;
    for (int node = e.head; node != kNone;) {
      Waiter& w = pool_[index(node)];
      const int next = w.next;
      w.needs &= static_cast<std::uint8_t>(~sectors);
      if (w.needs == 0) {
        done(w.op);
        w.next = free_waiter_;
        free_waiter_ = node;
      } else {
        w.next = kNone;
        if (kept_tail == kNone) {
          kept_head = node;
        } else {
          pool_[index(kept_tail)].next = node;
        }
        kept_tail = node;
        ++kept;
      }
      node = next;
    }
    e.head = kept_head;
    e.tail = kept_tail;
    e.waiters = kept;
    if (e.in_flight == 0) release(entry);
  }

 private:
  struct Entry {
    std::uint64_t line_address = 0;
    int waiters = 0;
    int head = kNone;  // first waiter record (in joining order), or kNone
    int tail = kNone;
    std::uint8_t in_flight = 0;
    bool used = false;
    bool indexed = false;  // present in the line index (mergeable entries)
  };
  struct Waiter {
    std::uint32_t op = 0;
    std::uint8_t needs = 0;
    int next = kNone;  // next waiter of the entry, or next free record
  };

  static std::size_t index(int entry) { return static_cast<std::size_t>(entry); }
  std::size_t home(std::uint64_t line_address) const;
  void release(int entry);
  void unindex(int entry);

  int merge_slots_;
  int max_sectors_ = 0;
  int sectors_in_flight_ = 0;
  std::vector<Entry> entries_;
  std::vector<Waiter> pool_;         // waiter records, free ones linked from free_waiter_
  int free_waiter_ = kNone;
  std::vector<std::uint64_t> free_;  // bit e of word e / 64: entry e is free (lowest reused first)
  int free_count_ = 0;
  std::size_t free_hint_ = 0;  // no free entry lies in a word below this one
  std::vector<int> slots_;     // open-addressing index: entry or kNone
  std::size_t slot_mask_ = 0;
};

}  // namespace warpsim::core
