#include "sim/core/lsu.h"

#include <algorithm>
#include <bit>
#include <string>

#include "arch/error.h"
#include "traces/lane_mask.h"

namespace warpsim::core {
namespace {

// Ids of requests whose response only acknowledges (writes, reductions), with the warp slot in
// the low bits; other ids are MSHR entries.
constexpr std::uint64_t kAckId = std::uint64_t{1} << 63;

int popcount8(std::uint8_t mask) { return static_cast<int>(traces::popcount(mask)); }

}  // namespace

Lsu::Lsu(const SmMemoryConfig& config, SmMemoryCounters& counters, SmMemoryCompletions& completions,
         engine::Port<mem::MemRequest>& requests, MioPipe& data_path)
    : config_(config),
      counters_(counters),
      completions_(completions),
      requests_(requests),
      data_path_(data_path),
      lines_(CoalescerConfig{config.l1_line_bytes, config.l1_sector_bytes}),
      l1_(config, 0),
      mshrs_(config.l1_mshr_entries, config.l1_mshr_merge_slots, config.l1_max_sectors_in_flight,
             config.l1_mshr_waiters),
      queues_(static_cast<std::size_t>(config.sub_partitions)),
      writes_(static_cast<std::size_t>(config.warp_slots)) {
  for (Queue& queue : queues_) {
    queue.slots.resize(static_cast<std::size_t>(config.lsu_queue_depth_per_smsp));
  }
  // Every op past the queue holds at least one waiter record, plus the one in the tag stage.
  const std::size_t op_slots = static_cast<std::size_t>(mshrs_.waiter_capacity()) + 1;
  ops_.resize(op_slots);
  free_ops_.reserve(op_slots);
  for (std::size_t i = op_slots; i > 0; --i) free_ops_.push_back(static_cast<std::uint32_t>(i - 1));
}

void Lsu::begin_kernel(std::uint64_t carveout_bytes) {
  if (!idle() || mshrs_.used_count() != 0) {
    throw InternalError("LSU: a kernel began while memory instructions were in flight");
  }
  l1_ = L1Cache(config_, carveout_bytes);
}

void Lsu::issue(std::uint32_t warp_slot, std::uint32_t op_id, int smsp, LsuKind kind,
                LsuSpace space, const WarpAccess& access, engine::Cycle now) {
  if (warp_slot >= writes_.size()) {
    throw InternalError("LSU: warp slot " + std::to_string(warp_slot) + " beyond the SM's " +
                        std::to_string(writes_.size()));
  }
  Queue& queue = queues_[static_cast<std::size_t>(smsp)];
  const int depth = static_cast<int>(queue.slots.size());
  Request& request = queue.slots[static_cast<std::size_t>((queue.head + queue.size) % depth)];
  request.warp_slot = warp_slot;
  request.op_id = op_id;
  request.enqueued = now;
  request.kind = kind;
  request.space = space;
  request.addressed = access.addresses != nullptr;
  request.lines.count = 0;
  if (request.addressed) lines_.build(access, kind != LsuKind::kLoad, request.lines);
  count_request(request);
  ++queue.size;
  ++queued_;
  advance(now);
}

void Lsu::count_request(const Request& request) {
  if (!request.addressed) {
    ++counters_.unaddressed_ops;
    return;
  }
  std::uint64_t sectors = 0;
  for (int i = 0; i < request.lines.count; ++i) {
    sectors += static_cast<std::uint64_t>(
        popcount8(request.lines.lines[static_cast<std::size_t>(i)].sectors));
  }
  const std::uint64_t requests = request.lines.count > 0 ? 1 : 0;
  const bool local = request.space == LsuSpace::kLocal;
  switch (request.kind) {
    case LsuKind::kLoad: {
      L1TagCounters& c = local ? counters_.local_ld : counters_.global_ld;
      c.requests += requests;
      c.sectors += sectors;
      break;
    }
    case LsuKind::kStore: {
      L1TagCounters& c = local ? counters_.local_st : counters_.global_st;
      c.requests += requests;
      c.sectors += sectors;
      break;
    }
    case LsuKind::kAtomic:
      counters_.global_atom_requests += requests;
      counters_.global_atom_sectors += sectors;
      break;
    case LsuKind::kReduction:
      counters_.global_red_requests += requests;
      counters_.global_red_sectors += sectors;
      break;
  }
}

engine::Cycle Lsu::earliest_start() const {
  if (stage_queue_ >= 0) return next_stage_;
  if (queued_ == 0) return engine::kSleep;
  engine::Cycle earliest = engine::kSleep;
  for (const Queue& queue : queues_) {
    if (queue.size > 0) earliest = std::min(earliest, queue.front().enqueued);
  }
  return std::max(earliest, next_stage_);
}

engine::Cycle Lsu::next_cycle() const {
  if (mshr_stalled_ || port_blocked_) return engine::kSleep;
  return earliest_start();
}

void Lsu::advance(engine::Cycle now) {
  if (port_blocked_) {
    port_blocked_ = false;
    next_stage_ = std::max(next_stage_, now);
  }
  while (!mshr_stalled_ && !port_blocked_) {
    const engine::Cycle at = earliest_start();
    if (at > now) return;
    run_stage_cycle(at);
  }
}

void Lsu::run_stage_cycle(engine::Cycle at) {
  if (stage_queue_ < 0) {
    const int count = static_cast<int>(queues_.size());
    for (int i = 0; i < count && stage_queue_ < 0; ++i) {
      const int smsp = (round_robin_ + i) % count;
      const Queue& queue = queues_[static_cast<std::size_t>(smsp)];
      if (queue.size > 0 && queue.front().enqueued <= at) stage_queue_ = smsp;
    }
    if (stage_queue_ < 0) throw InternalError("LSU tag stage found no eligible instruction");
    round_robin_ = (stage_queue_ + 1) % count;
    const Request& head = queues_[static_cast<std::size_t>(stage_queue_)].front();
    stage_op_ = free_ops_.back();
    free_ops_.pop_back();
    ops_[stage_op_] = Op{head.warp_slot, head.op_id, 0, 0, data_path_lines(head), stage_queue_};
    line_index_ = 0;
    sectors_left_ = head.lines.count > 0 ? popcount8(head.lines.lines[0].sectors) : 0;
  }
  const Request& request = queues_[static_cast<std::size_t>(stage_queue_)].front();
  if (request.lines.count == 0) {
    // Nothing to look up (no active lane, or no recorded addresses): timed as a hit.
    ops_[stage_op_].ready = at + static_cast<engine::Cycle>(config_.l1_hit_latency_cycles);
    finish_stage_op(at);
    next_stage_ = at + 1;
    return;
  }
  int budget = config_.l1_tag_sectors_per_cycle;
  int line_budget = config_.l1_tag_lines_per_cycle;  // 0: no limit
  while (true) {
    if (sectors_left_ > 0) {
      const int take = std::min(budget, sectors_left_);
      sectors_left_ -= take;
      budget -= take;
      if (sectors_left_ > 0) {
        next_stage_ = at + 1;
        return;
      }
    }
    if (!lookup(request, request.lines.lines[static_cast<std::size_t>(line_index_)], at)) {
      ++counters_.tag_stage_stalls;
      next_stage_ = at;
      return;
    }
    ++line_index_;
    if (line_index_ == request.lines.count) {
      finish_stage_op(at);
      next_stage_ = at + 1;
      return;
    }
    sectors_left_ = popcount8(request.lines.lines[static_cast<std::size_t>(line_index_)].sectors);
    if (budget == 0 || --line_budget == 0) {
      next_stage_ = at + 1;
      return;
    }
  }
}

void Lsu::send(const mem::MemRequest& request, engine::Cycle at) {
  mem::MemRequest message = request;
  message.issue_time_ps = requests_.sender().domain().time_of(at);
  requests_.send(message);
}

bool Lsu::lookup(const Request& request, const LsuLine& line, engine::Cycle at) {
  if (request.kind == LsuKind::kLoad) return lookup_load(request, line, at);
  if (request.kind == LsuKind::kAtomic &&
      (!mshrs_.has_free() || !mshrs_.has_sector_room(popcount8(line.sectors)))) {
    mshr_stalled_ = true;
    return false;
  }
  if (!requests_.can_send()) {
    port_blocked_ = true;
    return false;
  }
  const auto sectors = static_cast<std::uint64_t>(popcount8(line.sectors));
  mem::MemRequest message{.line_address = line.line_address,
                          .id = kAckId | request.warp_slot,
                          .source_sm = config_.sm_id,
                          .write_bytes = line.bytes,
                          .sector_mask = line.sectors,
                          .full_write_mask = line.full};
  switch (request.kind) {
    case LsuKind::kStore: {
      const std::uint8_t hits = l1_.store(line.line_address, line.sectors);
      L1TagCounters& c =
          request.space == LsuSpace::kLocal ? counters_.local_st : counters_.global_st;
      c.sector_hits += static_cast<std::uint64_t>(popcount8(hits));
      c.sector_misses += sectors - static_cast<std::uint64_t>(popcount8(hits));
      message.op = mem::MemOp::kWrite;
      ++counters_.write_requests;
      counters_.write_sectors += sectors;
      break;
    }
    case LsuKind::kAtomic: {
      const int entry = mshrs_.allocate(line.line_address, false);
      ++counters_.mshr_allocations;
      mshrs_.add_waiter(entry, stage_op_, line.sectors);
      mshrs_.add_in_flight(entry, line.sectors);
      ++ops_[stage_op_].pending;
      message.id = static_cast<std::uint64_t>(entry);
      message.op = mem::MemOp::kAtomic;
      message.full_write_mask = 0;
      ++counters_.atomic_requests;
      break;
    }
    case LsuKind::kReduction:
      message.op = mem::MemOp::kReduction;
      message.full_write_mask = 0;
      ++counters_.atomic_requests;
      break;
    case LsuKind::kLoad:
      break;
  }
  if (message.op == mem::MemOp::kWrite || message.op == mem::MemOp::kReduction) {
    ++writes_[request.warp_slot].unacknowledged;
    ++unacknowledged_;
  }
  send(message, at);
  return true;
}

bool Lsu::lookup_load(const Request& request, const LsuLine& line, engine::Cycle at) {
  const std::uint64_t address = line.line_address;
  const std::uint8_t wanted = line.sectors;
  const std::uint8_t valid = l1_.valid_sectors(address);
  int entry = mshrs_.find(address);
  const std::uint8_t in_flight = entry == L1MshrTable::kNone ? 0 : mshrs_.in_flight(entry);
  const auto wait = static_cast<std::uint8_t>(wanted & (in_flight | ~valid));
  const auto fetch = static_cast<std::uint8_t>(wanted & ~valid & ~in_flight);
  if (wait != 0) {
    const bool room = entry == L1MshrTable::kNone ? mshrs_.has_free() : mshrs_.can_merge(entry);
    if (!room || (fetch != 0 && !mshrs_.has_sector_room(popcount8(fetch)))) {
      mshr_stalled_ = true;
      return false;
    }
    if (fetch != 0 && !requests_.can_send()) {
      port_blocked_ = true;
      return false;
    }
  }
  const std::uint8_t hits = l1_.load(address, wanted);
  L1TagCounters& c = request.space == LsuSpace::kLocal ? counters_.local_ld : counters_.global_ld;
  c.sector_hits += static_cast<std::uint64_t>(popcount8(hits));
  c.sector_misses += static_cast<std::uint64_t>(popcount8(wanted) - popcount8(hits));
  Op& op = ops_[stage_op_];
  if (wait == 0) {
    op.ready = std::max(op.ready, at + static_cast<engine::Cycle>(config_.l1_hit_latency_cycles));
    return true;
  }
  if (entry == L1MshrTable::kNone) {
    entry = mshrs_.allocate(address, true);
    ++counters_.mshr_allocations;
  } else {
    ++counters_.mshr_merges;
  }
  mshrs_.add_waiter(entry, stage_op_, wait);
  ++op.pending;
  if (fetch != 0) {
    mshrs_.add_in_flight(entry, fetch);
    ++counters_.read_requests;
    counters_.read_sectors += static_cast<std::uint64_t>(popcount8(fetch));
    send(mem::MemRequest::read(address, fetch, static_cast<std::uint64_t>(entry), config_.sm_id),
         at);
  }
  return true;
}

int Lsu::data_path_lines(const Request& request) const {
  switch (request.kind) {
    case LsuKind::kLoad:
      return config_.l1_load_data_uses_shared_path ? request.lines.count : 0;
    case LsuKind::kStore:
    case LsuKind::kReduction:
      return config_.l1_store_data_uses_shared_path ? request.lines.count : 0;
    case LsuKind::kAtomic:
      return 0;
  }
  return 0;
}

void Lsu::finish_stage_op(engine::Cycle at) {
  Queue& queue = queues_[static_cast<std::size_t>(stage_queue_)];
  const Request& request = queue.front();
  const std::uint32_t index = stage_op_;
  Op& op = ops_[index];
  stage_queue_ = -1;
  if (request.kind == LsuKind::kStore || request.kind == LsuKind::kReduction) {
    // Stores and reductions leave the SM l1_store_complete_cycles after their last request is
    // sent (1: the core sees it from the next cycle on).
    op.ready = at + static_cast<engine::Cycle>(config_.l1_store_complete_cycles);
  }
  if (op.pending == 0) complete(index);
  queue.head = (queue.head + 1) % static_cast<int>(queue.slots.size());
  --queue.size;
  --queued_;
}

void Lsu::op_line_done(std::uint32_t index, engine::Cycle ready) {
  Op& op = ops_[index];
  op.ready = std::max(op.ready, ready);
  --op.pending;
  const bool in_stage = stage_queue_ >= 0 && stage_op_ == index;
  if (op.pending == 0 && !in_stage) complete(index);
}

void Lsu::complete(std::uint32_t index) {
  const Op& op = ops_[index];
  if (op.lines > 0) {
    data_path_.return_load_data(op.warp_slot, op.op_id, op.smsp, op.lines, op.ready);
  } else {
    completions_.schedule(op.ready, op.warp_slot, op.op_id);
  }
  free_ops_.push_back(index);
}

void Lsu::notify_acknowledged(std::uint32_t warp_slot, engine::Cycle now) {
  WarpWrites& w = writes_[warp_slot];
  if (w.unacknowledged == 0) {
    completions_.schedule_acknowledged(now, warp_slot);
  } else {
    w.notify = true;
  }
}

void Lsu::on_response(const mem::MemResponse& response, engine::Cycle now) {
  ++counters_.responses;
  if ((response.id & kAckId) != 0) {
    const auto slot = static_cast<std::uint32_t>(response.id & ~kAckId);
    if (slot >= writes_.size() || writes_[slot].unacknowledged == 0) {
      throw InternalError("LSU: acknowledgement for warp slot " + std::to_string(slot) +
                          ", which has no write in flight");
    }
    WarpWrites& w = writes_[slot];
    --unacknowledged_;
    if (--w.unacknowledged == 0 && w.notify) {
      w.notify = false;
      completions_.schedule_acknowledged(now, slot);
    }
    return;
  }
  const auto entry = static_cast<int>(response.id);
  if (response.id >= static_cast<std::uint64_t>(mshrs_.capacity()) || !mshrs_.in_use(entry) ||
      mshrs_.line_address(entry) != response.line_address ||
      (mshrs_.in_flight(entry) & response.sector_mask) != response.sector_mask) {
    throw InternalError("LSU: response for line " + std::to_string(response.line_address) +
                        " with id " + std::to_string(response.id) + " matches no request");
  }
  const engine::Cycle ready = now + static_cast<engine::Cycle>(config_.l1_fill_latency_cycles);
  mshrs_.fill(entry, response.sector_mask, [&](std::uint32_t op) { op_line_done(op, ready); });
  if (mshr_stalled_) {
    mshr_stalled_ = false;
    next_stage_ = std::max(next_stage_, now);
  }
}

}  // namespace warpsim::core
