#include "sim/mem/mshr_table.h"

#include <bit>

#include "arch/error.h"

namespace warpsim::mem {

MshrTable::MshrTable(const MshrConfig& config, const std::string& field)
    : targets_per_entry_(config.targets_per_entry) {
  if (config.entries == 0) {
    throw InputError(field + ".mshr_entries: expected at least 1 entry, got 0");
  }
  if (config.targets_per_entry == 0) {
    throw InputError(field + ".mshr_targets: expected at least 1 target per entry, got 0");
  }
  entries_.resize(config.entries);
  targets_.resize(std::size_t{config.entries} * config.targets_per_entry);
  std::size_t slots = 2;
  while (slots < 2 * std::size_t{config.entries}) slots *= 2;
  slots_.assign(slots, kNone);
  hash_shift_ = 64 - std::countr_zero(slots);
  free_.resize(config.entries);
  for (Index i = 0; i < config.entries; ++i) free_[i] = config.entries - 1 - i;
}

MshrTable::Index MshrTable::find(std::uint64_t line_address) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = home_slot(line_address);; s = (s + 1) & mask) {
    const Index i = slots_[s];
    if (i == kNone) return kNone;
    if (entries_[i].line_address == line_address) return i;
  }
}

void MshrTable::unlink(std::uint64_t line_address) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t hole = home_slot(line_address);
  while (entries_[slots_[hole]].line_address != line_address) hole = (hole + 1) & mask;
  // Backward-shift deletion: move later members of the probe run into the hole when their home
  // slot does not lie cyclically in (hole, s].
  for (std::size_t s = (hole + 1) & mask; slots_[s] != kNone; s = (s + 1) & mask) {
    const std::size_t home = home_slot(entries_[slots_[s]].line_address);
    if (((s - home) & mask) >= ((s - hole) & mask)) {
      slots_[hole] = slots_[s];
      hole = s;
    }
  }
  slots_[hole] = kNone;
}

std::uint8_t MshrTable::in_flight(Index index) const {
  if (index == kNone) return 0;
  return static_cast<std::uint8_t>(entries_[index].requested & ~entries_[index].arrived);
}

bool MshrTable::can_add_target(Index index) const {
  if (index == kNone) return can_allocate();
  return entries_[index].targets < targets_per_entry_;
}

MshrTable::Index MshrTable::allocate(std::uint64_t line_address) {
  if (free_.empty()) throw InternalError("MSHR allocate on a full table");
  const Index i = free_.back();
  free_.pop_back();
  entries_[i] = Entry{.line_address = line_address, .valid = true};
  ++in_use_;
  const std::size_t mask = slots_.size() - 1;
  std::size_t s = home_slot(line_address);
  while (slots_[s] != kNone) s = (s + 1) & mask;
  slots_[s] = i;
  return i;
}

void MshrTable::mark_requested(Index index, std::uint8_t sectors) {
  Entry& entry = entries_[index];
  // A sector fetched again after it arrived (its line was evicted meanwhile) is in flight anew.
  entry.arrived &= static_cast<std::uint8_t>(~sectors);
  entry.requested |= sectors;
}

void MshrTable::add_target(Index index, const MemRequest& request, std::uint8_t needed) {
  Entry& entry = entries_[index];
  if (entry.targets >= targets_per_entry_) throw InternalError("MSHR target list overflow");
  targets_[std::size_t{index} * targets_per_entry_ + entry.targets++] = {request, needed};
}

void MshrTable::release_if_done(Index index) {
  Entry& entry = entries_[index];
  if (entry.targets == 0 && (entry.requested & ~entry.arrived) == 0) {
    unlink(entry.line_address);
    entry = Entry{};
    free_.push_back(index);
    --in_use_;
  }
}

}  // namespace warpsim::mem
