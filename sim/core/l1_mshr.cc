#include "sim/core/l1_mshr.h"

#include <algorithm>
#include <bit>

#include "arch/error.h"

namespace warpsim::core {

int L1MshrTable::waiter_pool(int entries, int merge_slots, int waiters) {
  if (waiters > 0) return waiters;
  return entries * (merge_slots > 0 ? merge_slots : 8);
}

L1MshrTable::L1MshrTable(int entries, int merge_slots, int max_sectors, int waiters)
    : merge_slots_(merge_slots), max_sectors_(max_sectors) {
  if (entries < 1 || merge_slots < 0 || waiters < 0) {
    throw InputError(
        "sm_memory.l1_mshr_entries: expected at least 1; l1_mshr_merge_slots and "
        "l1_mshr_waiters: expected 0 or more");
  }
  entries_.resize(static_cast<std::size_t>(entries));
  pool_.resize(static_cast<std::size_t>(waiter_pool(entries, merge_slots, waiters)));
  for (std::size_t i = pool_.size(); i > 0; --i) {
    pool_[i - 1].next = free_waiter_;
    free_waiter_ = static_cast<int>(i - 1);
  }
  if (max_sectors < 0 || (max_sectors > 0 && max_sectors < 4)) {
    throw InputError("l1.max_sectors_in_flight: expected 0 (no limit) or at least 4 (one line)");
  }
  free_.assign((static_cast<std::size_t>(entries) + 63) / 64, 0);
  for (int e = 0; e < entries; ++e)
    free_[static_cast<std::size_t>(e) / 64] |= std::uint64_t{1} << (e % 64);
  free_count_ = entries;
  const std::size_t slots = std::bit_ceil(2 * static_cast<std::size_t>(entries));
  slots_.assign(slots, kNone);
  slot_mask_ = slots - 1;
}

std::size_t L1MshrTable::home(std::uint64_t line_address) const {
  // Fibonacci hashing of the line number.
  const std::uint64_t hash = (line_address >> 7) * 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(hash >> 32) & slot_mask_;
}

int L1MshrTable::find(std::uint64_t line_address) const {
  for (std::size_t slot = home(line_address);; slot = (slot + 1) & slot_mask_) {
    const int entry = slots_[slot];
    if (entry == kNone) return kNone;
    if (entries_[index(entry)].line_address == line_address) return entry;
  }
}

int L1MshrTable::allocate(std::uint64_t line_address, bool mergeable) {
  if (free_count_ == 0) throw InternalError("L1 MSHR allocate with no free entry");
  while (free_[free_hint_] == 0) ++free_hint_;
  std::uint64_t& word = free_[free_hint_];
  const int entry = static_cast<int>(free_hint_ * 64) + std::countr_zero(word);
  word &= word - 1;
  --free_count_;
  Entry& e = entries_[index(entry)];
  e = Entry{line_address, 0, kNone, kNone, 0, true, mergeable};
  if (mergeable) {
    std::size_t slot = home(line_address);
    while (slots_[slot] != kNone) slot = (slot + 1) & slot_mask_;
    slots_[slot] = entry;
  }
  return entry;
}

void L1MshrTable::add_waiter(int entry, std::uint32_t op, std::uint8_t sectors) {
  Entry& e = entries_[index(entry)];
  if ((merge_slots_ > 0 && e.waiters >= merge_slots_) || free_waiter_ == kNone) {
    throw InternalError("L1 MSHR entry has no free merge slot");
  }
  const int node = free_waiter_;
  free_waiter_ = pool_[index(node)].next;
  pool_[index(node)] = Waiter{op, sectors, kNone};
  if (e.tail == kNone) {
    e.head = node;
  } else {
    pool_[index(e.tail)].next = node;
  }
  e.tail = node;
  ++e.waiters;
}

void L1MshrTable::release(int entry) {
  Entry& e = entries_[index(entry)];
  if (e.indexed) unindex(entry);
  // Waiters left on a released entry (none in the LSU's use) go back to the pool.
  for (int node = e.head; node != kNone;) {
    const int next = pool_[index(node)].next;
    pool_[index(node)].next = free_waiter_;
    free_waiter_ = node;
    node = next;
  }
  e = Entry{};
  // The lowest free entry is reused first (deterministic ids).
  const std::size_t w = index(entry) / 64;
  free_[w] |= std::uint64_t{1} << (index(entry) % 64);
  ++free_count_;
  free_hint_ = std::min(free_hint_, w);
}

void L1MshrTable::unindex(int entry) {
  std::size_t slot = home(entries_[index(entry)].line_address);
  while (slots_[slot] != entry) slot = (slot + 1) & slot_mask_;
  // Backward-shift deletion keeps every probe chain unbroken.
  std::size_t hole = slot;
  for (std::size_t next = (hole + 1) & slot_mask_; slots_[next] != kNone;
       next = (next + 1) & slot_mask_) {
    const std::size_t ideal = home(entries_[index(slots_[next])].line_address);
    // Move `next` into the hole when its ideal slot is not in the cyclic range (hole, next].
    const bool in_range =
        hole <= next ? (ideal > hole && ideal <= next) : (ideal > hole || ideal <= next);
    if (!in_range) {
      slots_[hole] = slots_[next];
      hole = next;
    }
  }
  slots_[hole] = kNone;
}

}  // namespace warpsim::core
