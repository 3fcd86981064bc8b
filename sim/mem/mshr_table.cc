#include "sim/mem/mshr_table.h"

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
}

MshrTable::Index MshrTable::find(std::uint64_t line_address) const {
  for (Index i = 0; i < entries_.size(); ++i) {
    if (entries_[i].valid && entries_[i].line_address == line_address) return i;
  }
  return kNone;
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
  for (Index i = 0; i < entries_.size(); ++i) {
    if (!entries_[i].valid) {
      entries_[i] = Entry{.line_address = line_address, .valid = true};
      ++in_use_;
      return i;
    }
  }
  throw InternalError("MSHR allocate on a full table");
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
    entry = Entry{};
    --in_use_;
  }
}

}  // namespace warpsim::mem
