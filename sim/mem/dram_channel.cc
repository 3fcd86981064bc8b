#include "sim/mem/dram_channel.h"

#include <algorithm>
#include <bit>
#include <ostream>
#include <utility>

#include "arch/error.h"

namespace warpsim::mem {

using engine::Cycle;
using engine::kSleep;

namespace {

Cycle after(Cycle at, std::uint32_t cycles) { return at + cycles; }

// Credit of deferred writes kept at most: a burst of reads lets a few join, not a backlog.
constexpr double kMaxDeferredCredit = 4.0;
// Taken deferred writes at the front of their vector that make it move the rest down.
constexpr std::size_t kDeferredCompactAt = 4096;

}  // namespace

DramChannel::DramChannel(std::string name, const engine::ClockDomain& domain,
                         const DramChannelConfig& config, const AddressMapping& mapping,
                         std::uint32_t index)
    : Component(std::move(name), domain),
      config_(config),
      mapping_(&mapping),
      index_(index),
      scheduler_(make_dram_scheduler(config.scheduler)),
      burst_cycles_(0) {
  if (config.bytes_per_cycle == 0 || config.burst_length == 0 ||
      std::uint64_t{config.burst_length} * config.bytes_per_cycle != 2 * kSectorBytes ||
      config.burst_length % 2 != 0) {
    throw InputError(
        "dram.burst_length: expected an even burst_length with burst_length x "
        "bytes_per_cycle / 2 = 32 bytes, got burst_length " +
        std::to_string(config.burst_length) + " and bytes_per_cycle " +
        std::to_string(config.bytes_per_cycle));
  }
  burst_cycles_ = config.burst_length / 2;
  if (config.read_queue_entries == 0 || config.write_queue_entries == 0) {
    throw InputError("dram.read_queue_entries / dram.write_queue_entries: expected at least 1");
  }
  if (config.write_drain_high == 0 || config.write_drain_high > config.write_queue_entries ||
      config.write_drain_low >= config.write_drain_high) {
    throw InputError(
        "dram.write_drain_high / dram.write_drain_low: expected 0 <= low < high <= "
        "write_queue_entries (" +
        std::to_string(config.write_queue_entries) + "), got low " +
        std::to_string(config.write_drain_low) + ", high " +
        std::to_string(config.write_drain_high));
  }
  if (!(config.deferred_write_share >= 0 && config.deferred_write_share <= 1)) {
    throw InputError(
        "hbm.deferred_write_share: expected a share of at most 1 write per read, got " +
        std::to_string(config.deferred_write_share));
  }
  if (config.timing.ccd_s_cycles < burst_cycles_ || config.timing.ccd_l_cycles < burst_cycles_) {
    throw InputError("dram.timing.ccd_s_cycles / ccd_l_cycles: expected at least one burst (" +
                     std::to_string(burst_cycles_) + " cycles)");
  }
  if (config.timing.refi_cycles != 0) {
    if (config.timing.rfc_cycles == 0 || config.timing.rfc_cycles >= config.timing.refi_cycles) {
      throw InputError("dram.timing.rfc_cycles: expected 0 < tRFC < tREFI (" +
                       std::to_string(config.timing.refi_cycles) + "), got " +
                       std::to_string(config.timing.rfc_cycles));
    }
    refresh_interval_ = config.timing.refi_cycles;
    if (config.timing.rfcpb_cycles != 0) {
      const Cycle banks = std::max<Cycle>(1, mapping.banks());
      refresh_interval_ = std::max<Cycle>(1, config.timing.refi_cycles / banks);
      if (config.timing.rfcpb_cycles >= config.timing.refi_cycles) {
        throw InputError("dram.timing.rfcpb_cycles: expected tRFCpb < tREFI (" +
                         std::to_string(config.timing.refi_cycles) + "), got " +
                         std::to_string(config.timing.rfcpb_cycles));
      }
    }
    next_refresh_ = refresh_interval_;
  }
  if (index >= mapping.geometry().channels) {
    throw InputError("dram channel index " + std::to_string(index) + " outside dram.channels");
  }
  reads_.reserve(config.read_queue_entries);
  writes_.reserve(config.write_queue_entries);
  read_requests_.reserve(config.read_queue_entries);
  write_requests_.reserve(config.write_queue_entries);
  candidates_.reserve(std::max(config.read_queue_entries, config.write_queue_entries));
  banks_.resize(mapping.banks());
  hit_queued_.resize(mapping.banks());
  next_act_group_.resize(mapping.geometry().bank_groups);
  next_column_group_.resize(mapping.geometry().bank_groups);
  responses_.reserve(config.read_queue_entries);
}

DramChannel::~DramChannel() = default;

void DramChannel::set_upstream(const MemLink& link) {
  upstream_ = link;
  out_latency_cycles_ = domain().cycle_at_or_after(link.response->latency());
  if (config_.timing.cl_cycles + burst_cycles_ < out_latency_cycles_) {
    throw InputError(
        "dram.timing.cl_cycles: expected CL + burst of at least the response "
        "port's " +
        std::to_string(out_latency_cycles_) + " cycle(s)");
  }
}

void DramChannel::enqueue(const MemRequest& r) {
  const bool write = r.op != MemOp::kRead;
  const DramAddress a = mapping_->map(r.line_address);
  if (a.channel != index_) {
    throw InternalError(name() + ": request for channel " + std::to_string(a.channel));
  }
  Entry e{.bank = a.bank_group * mapping_->geometry().banks_per_group + a.bank,
          .bank_group = a.bank_group,
          .row = a.row,
          .age = next_age_++,
          .remaining = static_cast<std::uint8_t>(r.sector_mask & kAllSectors)};
  if (e.remaining == 0) return;  // nothing to transfer
  if (!write && deferred_head_ < deferred_.size()) {
    deferred_credit_ =
        std::min(deferred_credit_ + config_.deferred_write_share, kMaxDeferredCredit);
  }
  (write ? writes_ : reads_).push_back(e);
  (write ? write_requests_ : read_requests_).push_back(r);
  note_progress();
}

void DramChannel::accept() {
  while (upstream_.request->has_message()) {
    const MemRequest& r = upstream_.request->front();
    const bool write = r.op != MemOp::kRead;
    if (write && r.deferrable && config_.deferred_write_share > 0) {
      deferred_.push_back(r);
    } else if (write ? writes_.size() >= config_.write_queue_entries
                     : reads_.size() + responses_.size() >= config_.read_queue_entries) {
      break;
    } else {
      enqueue(r);
    }
    upstream_.request->pop();
  }
  // Deferred writes join the write queue while no read waits, or on the credit of the reads taken.
  while (deferred_head_ < deferred_.size() && writes_.size() < config_.write_queue_entries &&
         (reads_.empty() || deferred_credit_ >= 1.0)) {
    if (!reads_.empty()) deferred_credit_ -= 1.0;
    enqueue(deferred_[deferred_head_++]);
  }
  if (deferred_head_ == deferred_.size()) {
    deferred_.clear();
    deferred_head_ = 0;
  } else if (deferred_head_ >= kDeferredCompactAt && 2 * deferred_head_ >= deferred_.size()) {
    deferred_.erase(deferred_.begin(), deferred_.begin() + static_cast<long>(deferred_head_));
    deferred_head_ = 0;
  }
  if (!draining_ &&
      (writes_.size() >= config_.write_drain_high || (reads_.empty() && !writes_.empty()))) {
    draining_ = true;
  } else if (draining_ &&
             (writes_.empty() || (writes_.size() <= config_.write_drain_low && !reads_.empty()))) {
    draining_ = false;
  }
}

DramChannel::CandidateBounds DramChannel::candidate_bounds(bool writes) const {
  const DramTiming& t = config_.timing;
  CandidateBounds b;
  b.column = std::max(next_column_any_, writes ? next_write_ : next_read_);
  const std::uint32_t data_delay = writes ? t.cwl_cycles : t.cl_cycles;
  if (bus_free_ > data_delay) b.column = std::max(b.column, bus_free_ - data_delay);
  b.activate = next_act_any_;
  if (act_count_ >= 4) {
    b.activate = std::max(b.activate, after(recent_acts_[act_count_ % 4], t.faw_cycles));
  }
  return b;
}

DramCandidate DramChannel::candidate_for(std::uint32_t index, const Entry& e, bool writes,
                                         const CandidateBounds& bounds) const {
  const Bank& bank = banks_[e.bank];
  DramCandidate c{.queue_index = index, .age = e.age};
  if (bank.open && bank.row == e.row) {
    c.command = writes ? DramCommand::kWrite : DramCommand::kRead;
    c.earliest =
        std::max({bank.next_column, next_column_group_[e.bank_group], bounds.column});
  } else if (bank.open) {
    c.command = DramCommand::kPrecharge;  // closes_hit_row: set by tick() afterwards
    c.earliest = bank.next_pre;
  } else {
    c.command = DramCommand::kActivate;
    c.earliest = std::max({bank.next_act, next_act_group_[e.bank_group], bounds.activate});
  }
  return c;
}

void DramChannel::issue(const DramCandidate& c, Cycle now, bool writes) {
  pick_wait_.valid = false;
  const DramTiming& t = config_.timing;
  std::vector<Entry>& queue = writes ? writes_ : reads_;
  Entry& e = queue[c.queue_index];
  Bank& bank = banks_[e.bank];
  if (!e.classified) {
    e.classified = true;
    if (c.is_column())
      ++counters_.row_hits;
    else if (c.command == DramCommand::kActivate)
      ++counters_.row_misses;
    else
      ++counters_.row_conflicts;
  }
  switch (c.command) {
    case DramCommand::kActivate:
      bank.open = true;
      bank.row = e.row;
      bank.next_column = after(now, t.rcd_cycles);
      bank.next_pre = after(now, t.ras_cycles);
      next_act_any_ = after(now, t.rrd_s_cycles);
      next_act_group_[e.bank_group] = after(now, t.rrd_l_cycles);
      recent_acts_[act_count_ % 4] = now;
      ++act_count_;
      ++counters_.activates;
      return;
    case DramCommand::kPrecharge:
      bank.open = false;
      bank.next_act = after(now, t.rp_cycles);
      ++counters_.precharges;
      return;
    case DramCommand::kRead:
    case DramCommand::kWrite:
      break;
  }
  const Cycle data_start = now + (writes ? t.cwl_cycles : t.cl_cycles);
  const Cycle data_end = data_start + burst_cycles_;
  bus_free_ = data_end;
  counters_.bus_busy_cycles += burst_cycles_;
  next_column_any_ = after(now, t.ccd_s_cycles);
  next_column_group_[e.bank_group] = after(now, t.ccd_l_cycles);
  if (writes) {
    bank.next_pre = std::max(bank.next_pre, after(data_end, t.wr_cycles));
    next_read_ = std::max(next_read_, after(data_end, t.wtr_cycles));
    counters_.bytes_written += kSectorBytes;
  } else {
    bank.next_pre = std::max(bank.next_pre, after(now, t.rtp_cycles));
    next_write_ = std::max(next_write_, after(now, t.rtw_cycles));
    counters_.bytes_read += kSectorBytes;
  }
  e.remaining &= static_cast<std::uint8_t>(e.remaining - 1);  // clear the lowest sector
  if (e.remaining != 0) return;
  bus_free_ = data_end + t.request_gap_cycles;
  if (writes) {
    ++counters_.writes;
  } else {
    ++counters_.reads;
    responses_.push_back(
        {data_end - out_latency_cycles_, response_to(read_requests_[c.queue_index])});
  }
  std::vector<MemRequest>& requests = writes ? write_requests_ : read_requests_;
  requests.erase(requests.begin() + c.queue_index);
  queue.erase(queue.begin() + c.queue_index);
}

void DramChannel::catch_up_refresh(Cycle now) {
  pick_wait_.valid = false;
  const DramTiming& t = config_.timing;
  if (t.rfcpb_cycles != 0) {
    while (next_refresh_ <= now) {
      Bank& bank = banks_[refresh_bank_];
      const Cycle start = std::max(
          next_refresh_, bank.open ? after(bank.next_pre, t.rp_cycles) : bank.next_act);
      bank.open = false;
      bank.next_act = after(start, t.rfcpb_cycles);
      ++counters_.refreshes;
      refresh_bank_ = (refresh_bank_ + 1) % static_cast<std::uint32_t>(banks_.size());
      next_refresh_ += refresh_interval_;
    }
    return;
  }
  while (next_refresh_ <= now) {
    Cycle start = next_refresh_;
    for (const Bank& bank : banks_) {
      start = std::max(start, bank.open ? after(bank.next_pre, t.rp_cycles) : bank.next_act);
    }
    for (Bank& bank : banks_) {
      bank.open = false;
      bank.next_act = after(start, t.rfc_cycles);
    }
    ++counters_.refreshes;
    next_refresh_ += refresh_interval_;
  }
}

Cycle DramChannel::bank_refresh_step(Cycle now) {
  pick_wait_.valid = false;
  const DramTiming& t = config_.timing;
  Bank& bank = banks_[refresh_bank_];
  if (bank.open) {
    if (bank.next_pre > now) return bank.next_pre;  // the row may not close yet
    bank.open = false;
    bank.next_act = after(now, t.rp_cycles);
    ++counters_.precharges;
    return now + 1;
  }
  if (bank.next_act > now) return bank.next_act;
  bank.next_act = after(now, t.rfcpb_cycles);
  ++counters_.refreshes;
  refresh_bank_ = (refresh_bank_ + 1) % static_cast<std::uint32_t>(banks_.size());
  next_refresh_ += refresh_interval_;
  return now + 1;
}

Cycle DramChannel::refresh_step(Cycle now) {
  pick_wait_.valid = false;
  const DramTiming& t = config_.timing;
  Bank* first_open = nullptr;
  Cycle all_closed_at = now;
  for (Bank& bank : banks_) {
    if (bank.open) {
      if (first_open == nullptr || bank.next_pre < first_open->next_pre) first_open = &bank;
    } else {
      all_closed_at = std::max(all_closed_at, bank.next_act);
    }
  }
  if (first_open != nullptr) {
    if (first_open->next_pre > now) return first_open->next_pre;
    first_open->open = false;
    first_open->next_act = after(now, t.rp_cycles);
    ++counters_.precharges;
    return now + 1;
  }
  if (all_closed_at > now) return all_closed_at;
  for (Bank& bank : banks_) bank.next_act = after(now, t.rfc_cycles);
  ++counters_.refreshes;
  next_refresh_ += refresh_interval_;
  return now + 1;
}

bool DramChannel::still_waiting(Cycle now, bool writes, const std::vector<Entry>& queue) {
  PickWait& w = pick_wait_;
  if (!w.valid || w.writes != writes || queue.size() < w.scanned || now >= w.until) return false;
  const CandidateBounds bounds = candidate_bounds(writes);
  for (std::size_t i = w.scanned; i < queue.size(); ++i) {
    const DramCandidate c = candidate_for(static_cast<std::uint32_t>(i), queue[i], writes, bounds);
    if (c.earliest <= now) return false;  // it may issue now: the full scan decides
    w.until = std::min(w.until, c.earliest);
    w.until_any = std::min(w.until_any, c.earliest);
  }
  w.scanned = queue.size();
  return now < w.until;
}

Cycle DramChannel::schedule(Cycle now, bool writes, bool bank_refresh_due) {
  const std::vector<Entry>& queue = writes ? writes_ : reads_;
  candidates_.clear();
  const CandidateBounds bounds = candidate_bounds(writes);
  bool precharges = false;
  for (std::uint32_t i = 0; i < queue.size(); ++i) {
    if (bank_refresh_due && queue[i].bank == refresh_bank_) continue;
    candidates_.push_back(candidate_for(i, queue[i], writes, bounds));
    precharges |= candidates_.back().command == DramCommand::kPrecharge;
  }
  if (precharges) {
    // A PRE that would close a row other queued requests hit is marked for the scheduler.
    std::fill(hit_queued_.begin(), hit_queued_.end(), std::uint8_t{0});
    for (const Entry& e : queue) {
      if (banks_[e.bank].open && banks_[e.bank].row == e.row) hit_queued_[e.bank] = 1;
    }
    for (DramCandidate& c : candidates_) {
      if (c.command == DramCommand::kPrecharge) {
        c.closes_hit_row = hit_queued_[queue[c.queue_index].bank] != 0;
      }
    }
  }
  const int pick = scheduler_->pick(candidates_, now);
  if (pick != DramScheduler::kNone) {
    issue(candidates_[static_cast<std::size_t>(pick)], now, writes);
    note_progress();
    return now + 1;
  }
  Cycle any = kSleep;
  for (const DramCandidate& c : candidates_) any = std::min(any, std::max(c.earliest, now + 1));
  // A refreshing bank's requests were left out: only a full scan may wait on the others.
  pick_wait_ = {.valid = !bank_refresh_due,
                .writes = writes,
                .scanned = queue.size(),
                .until = scheduler_->next_pick(candidates_, now),
                .until_any = any};
  return kSleep;
}

Cycle DramChannel::tick(Cycle now) {
  if (upstream_.request == nullptr) throw InternalError(name() + ": no upstream ports");
  if (reads_.empty() && writes_.empty()) catch_up_refresh(now);
  accept();
  const bool blocked = upstream_.request->has_message();
  Cycle next = kSleep;
  const bool writes = draining_;
  const std::vector<Entry>& queue = writes ? writes_ : reads_;
  const bool per_bank = config_.timing.rfcpb_cycles != 0;
  // Per-bank refresh due: the bank in turn takes no new commands; it is precharged and refreshed
  // as soon as its timing allows, and the other banks go on meanwhile.
  const bool bank_refresh_due = per_bank && !queue.empty() && next_refresh_ <= now;
  const Cycle refresh_at = bank_refresh_due ? bank_refresh_step(now) : kSleep;
  if (bank_refresh_due && refresh_at == now + 1) {
    note_progress();  // the bank in turn was precharged or refreshed: this cycle's command
    next = now + 1;
  } else if (!queue.empty() && next_refresh_ <= now && !per_bank) {
    next = refresh_step(now);
    if (next == now + 1) note_progress();  // a PRE or the refresh issued
  } else if (!queue.empty()) {
    next = bank_refresh_due ? refresh_at : next_refresh_;
    if (bank_refresh_due || !still_waiting(now, writes, queue)) {
      next = std::min(next, schedule(now, writes, bank_refresh_due));
    }
    if (next != now + 1) {
      // Requests left in the port (the queue was full) are taken at the next tick, when a
      // response has made room: then wake when any candidate's timing allows, as a tick each
      // time the scheduler could look again would.
      next = std::min(next, blocked ? std::max(pick_wait_.until_any, now + 1) : pick_wait_.until);
    }
  }
  while (!responses_.empty() && responses_.front().ready <= now) {
    if (!upstream_.response->can_send()) break;
    upstream_.response->send(responses_.front().response);
    responses_.pop_front();
    note_progress();
  }
  if (!responses_.empty() && responses_.front().ready > now) {
    next = std::min(next, responses_.front().ready);
  }
  return next;
}

bool DramChannel::busy() const {
  return !reads_.empty() || !writes_.empty() || !responses_.empty() ||
         deferred_head_ < deferred_.size() ||
         (upstream_.request != nullptr && upstream_.request->next_arrival() != engine::kNever);
}

void DramChannel::dump_state(std::ostream& out) const {
  out << "reads=" << reads_.size() << " writes=" << writes_.size()
      << " deferred=" << deferred_.size() - deferred_head_ << " draining=" << draining_
      << " responses=" << responses_.size() << " bytes_read=" << counters_.bytes_read
      << " bytes_written=" << counters_.bytes_written;
}

}  // namespace warpsim::mem
