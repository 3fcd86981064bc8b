#include "sim/core/scoreboard.h"

#include <algorithm>
#include <bit>

namespace warpsim::core {
namespace {

using engine::Cycle;
using engine::kSleep;
using traces::RegKind;

// Whether hazard `a` binds later than `b` (pending beats any cycle; then later, then longer).
bool later(Cycle ready_a, DependencyKind kind_a, Cycle ready_b, DependencyKind kind_b) {
  if (ready_a != ready_b) return ready_a > ready_b;
  return kind_a > kind_b;
}

}  // namespace

void Scoreboard::clear() {
  bits_.fill(0);
  used_ = 0;
}

void Scoreboard::set_bits(int first, int count, bool value) {
  for (int s = first; s < first + count; ++s) {
    const std::uint64_t bit = std::uint64_t{1} << (s & 63);
    if (value) {
      bits_[s >> 6] |= bit;
    } else {
      bits_[s >> 6] &= ~bit;
    }
  }
}

void Scoreboard::release(int entry) {
  const Entry& e = entries_[entry];
  set_bits(e.first, e.count, false);
  used_ &= ~(1u << entry);
}

void Scoreboard::fold(const Entry& e, Hazard& hazard) const {
  if (!hazard.blocked || later(e.ready, e.kind, hazard.ready, hazard.kind)) {
    hazard.blocked = true;
    hazard.ready = e.ready;
    hazard.kind = e.kind;
  }
}

void Scoreboard::check_entries(int slot, Cycle now, Hazard& hazard) {
  for (std::uint32_t m = used_; m != 0; m &= m - 1) {
    const int i = std::countr_zero(m);
    const Entry& e = entries_[i];
    if (slot < e.first || slot >= e.first + e.count) continue;
    if (e.ready <= now) {
      release(i);
    } else {
      fold(e, hazard);
    }
  }
}

Hazard Scoreboard::check(const traces::WarpInstruction& inst, int dst_regs, Cycle now) {
  Hazard hazard;
  if (used_ == 0) return hazard;  // nothing in flight: no hazard, every entry free
  for (int i = 0; i < inst.num_src; ++i) check_reg(flat_index(inst.src[i]), now, hazard);
  check_reg(flat_index(inst.guard), now, hazard);
  int writes = 0;
  for (int i = 0; i < inst.num_dst; ++i) {
    const int first = flat_index(inst.dst[i]);
    if (first < 0) continue;
    ++writes;
    for (int r = 0; r < dst_regs; ++r) check_reg(first + r, now, hazard);
  }
  if (writes == 0 || static_cast<int>(traces::popcount(~used_ & 0xFFFFFFFFu)) >= writes)
    return hazard;
  // Out of entries: reclaim expired ones, else wait for the earliest to clear.
  Cycle earliest = kSleep;
  DependencyKind earliest_kind = DependencyKind::kFixed;
  for (std::uint32_t m = used_; m != 0; m &= m - 1) {
    const int i = std::countr_zero(m);
    if (entries_[i].ready <= now) {
      release(i);
    } else if (entries_[i].ready < earliest || earliest == kSleep) {
      earliest = entries_[i].ready;
      earliest_kind = entries_[i].kind;
    }
  }
  if (static_cast<int>(traces::popcount(~used_ & 0xFFFFFFFFu)) < writes) {
    Entry binding;
    binding.ready = earliest;
    binding.kind = earliest_kind;
    fold(binding, hazard);
  }
  return hazard;
}

void Scoreboard::record(const traces::WarpInstruction& inst, int dst_regs, Cycle ready,
                        DependencyKind kind, std::uint32_t op_id) {
  for (int i = 0; i < inst.num_dst; ++i) add_entry(inst.dst[i], dst_regs, ready, kind, op_id);
}

void Scoreboard::lock_for_read(traces::Reg reg, int count, DependencyKind kind,
                               std::uint32_t op_id) {
  add_entry(reg, count, kSleep, kind, op_id);
}

void Scoreboard::add_entry(traces::Reg reg, int count, Cycle ready, DependencyKind kind,
                           std::uint32_t op_id) {
  const int first = flat_index(reg);
  if (first < 0 || used_ == ~0u) return;
  const auto k = static_cast<std::size_t>(reg.kind());
  count = std::min(count, kKindBase[k] + static_cast<int>(kKindSize[k]) - first);
  const int slot = std::countr_zero(~used_);
  entries_[slot] = Entry{ready, op_id, static_cast<std::uint16_t>(first),
                         static_cast<std::uint8_t>(count), kind};
  used_ |= 1u << slot;
  set_bits(first, count, true);
}

void Scoreboard::complete(std::uint32_t op_id, Cycle at) {
  for (std::uint32_t m = used_; m != 0; m &= m - 1) {
    const int i = std::countr_zero(m);
    if (entries_[i].op_id == op_id && entries_[i].ready == kSleep) entries_[i].ready = at;
  }
}

int Scoreboard::entries_in_use() const { return static_cast<int>(traces::popcount(used_)); }

}  // namespace warpsim::core
