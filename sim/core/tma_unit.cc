#include "sim/core/tma_unit.h"

#include <algorithm>

namespace warpsim::core {

TmaUnit::TmaUnit(const SmMemoryConfig& config, SmMemoryCounters& counters,
                 SmMemoryCompletions& completions, engine::Port<mem::MemRequest>& requests)
    : config_(config), counters_(counters), completions_(completions), requests_(requests) {
  lines_per_cycle_ = std::max(
      1, config.shared_banks * config.shared_bank_width_bytes / std::max(1, config.l1_line_bytes));
}

void TmaUnit::add_range(std::uint64_t first, std::uint64_t bytes, std::uint32_t copy) {
  const auto line_bytes = static_cast<std::uint64_t>(config_.l1_line_bytes);
  const auto sector_bytes = static_cast<std::uint64_t>(config_.l1_sector_bytes);
  const std::uint64_t end = first + bytes;
  for (std::uint64_t line = first / line_bytes * line_bytes; line < end; line += line_bytes) {
    const std::uint64_t lo = std::max(first, line), hi = std::min(end, line + line_bytes);
    Line l{.address = line, .bytes = static_cast<std::uint16_t>(hi - lo), .copy = copy};
    for (std::uint64_t s = 0; s < line_bytes / sector_bytes; ++s) {
      const std::uint64_t s_lo = line + s * sector_bytes, s_hi = s_lo + sector_bytes;
      if (hi <= s_lo || lo >= s_hi) continue;
      l.sectors = static_cast<std::uint8_t>(l.sectors | (1u << s));
      if (lo <= s_lo && hi >= s_hi) l.full = static_cast<std::uint8_t>(l.full | (1u << s));
    }
    lines_.push_back(l);
    ++copies_[copy].lines_left;
  }
}

void TmaUnit::issue(std::uint32_t warp_slot, std::uint32_t op_id, bool store,
                    std::span<const std::uint64_t> addresses, std::uint32_t bytes,
                    engine::Cycle now) {
  if (free_copies_.empty()) {
    free_copies_.push_back(static_cast<std::uint32_t>(copies_.size()));
    copies_.emplace_back();
  }
  const std::uint32_t index = free_copies_.back();
  free_copies_.pop_back();
  copies_[index] = Copy{
      .warp_slot = warp_slot, .op_id = op_id, .ready = now + 1, .store = store, .in_use = true};
  ++copies_in_flight_;
  if (head_ > 0 && head_ == lines_.size()) {
    lines_.clear();
    head_ = 0;
  }
  if (!addresses.empty() && bytes > 0) {
    const std::uint64_t share = std::max<std::uint64_t>(1, bytes / addresses.size());
    for (const std::uint64_t a : addresses) add_range(a, share, index);
  }
  (store ? counters_.tma_st_bytes : counters_.tma_ld_bytes) += bytes;
  if (copies_[index].lines_left == 0) {
    finish(index);
    return;
  }
  next_send_ = std::max(next_send_, now);
  advance(now);
}

void TmaUnit::finish(std::uint32_t index) {
  Copy& c = copies_[index];
  completions_.schedule(c.ready, c.warp_slot, c.op_id);
  c.in_use = false;
  free_copies_.push_back(index);
  --copies_in_flight_;
}

void TmaUnit::advance(engine::Cycle now) {
  port_blocked_ = false;
  while (head_ < lines_.size() && next_send_ <= now) {
    const engine::Cycle at = next_send_;
    for (int sent = 0; sent < lines_per_cycle_ && head_ < lines_.size(); ++sent) {
      if (!requests_.can_send()) {
        port_blocked_ = true;
        next_send_ = now;  // resumes when a credit returns (the SM is woken)
        return;
      }
      const Line& l = lines_[head_++];
      Copy& c = copies_[l.copy];
      mem::MemRequest message;
      if (c.store) {
        message = mem::MemRequest{.line_address = l.address,
                                  .id = kResponseTag,
                                  .source_sm = config_.sm_id,
                                  .write_bytes = l.bytes,
                                  .sector_mask = l.sectors,
                                  .full_write_mask = l.full,
                                  .op = mem::MemOp::kWrite};
        ++counters_.write_requests;
        counters_.write_sectors += mem::sector_count(l.sectors);
      } else {
        message = mem::MemRequest::read(l.address, l.sectors, kResponseTag, config_.sm_id);
        ++counters_.read_requests;
        counters_.read_sectors += mem::sector_count(l.sectors);
      }
      message.issue_time_ps = requests_.sender().domain().time_of(at);
      requests_.send(message);
      if (--c.lines_left == 0) {
        c.ready = std::max(c.ready, at + 1);
        finish(l.copy);
      }
    }
    next_send_ = at + 1;
  }
}

bool TmaUnit::on_response(const mem::MemResponse& response, engine::Cycle now) {
  (void)now;
  if ((response.id & kResponseTag) == 0) return false;
  ++counters_.responses;
  return true;
}

engine::Cycle TmaUnit::next_cycle() const {
  if (port_blocked_ || head_ >= lines_.size()) return engine::kSleep;
  return next_send_;
}

}  // namespace warpsim::core
