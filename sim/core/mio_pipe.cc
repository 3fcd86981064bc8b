#include "sim/core/mio_pipe.h"

#include <algorithm>
#include <array>
#include <bit>

namespace warpsim::core {

MioPipe::MioPipe(const SmMemoryConfig& config, SmMemoryCounters& counters,
                 SmMemoryCompletions& completions)
    : config_(config),
      banks_(SharedMemoryBankConfig{config.shared_banks, config.shared_bank_width_bytes}),
      counters_(counters),
      completions_(completions),
      queues_(static_cast<std::size_t>(config.sub_partitions)) {
  for (Queue& queue : queues_) {
    queue.slots.resize(static_cast<std::size_t>(config.mio_queue_depth_per_smsp));
  }
}

SharedAccessCost MioPipe::shared_cost(const WarpAccess& access) const {
  std::array<std::uint64_t, kWarpLanes> lanes{};
  if (access.addresses == nullptr) {
    // No recorded addresses: the ideal, conflict-free pattern of consecutive elements.
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      lanes[static_cast<std::size_t>(lane)] =
          static_cast<std::uint64_t>(lane) * static_cast<std::uint64_t>(access.width_bytes);
    }
  } else {
    std::copy_n(access.addresses, kWarpLanes, lanes.begin());
  }
  const int width = access.width_bytes;
  if (width <= kMaxAccessBytes || width % kMaxAccessBytes != 0 || width > 8 * kMaxAccessBytes) {
    return banks_.access(access.mask, LaneAddresses(lanes), width);
  }
  // Wide accesses: one 16-byte piece per lane at a time.
  SharedAccessCost total;
  for (int piece = 0; piece < width / kMaxAccessBytes; ++piece) {
    std::array<std::uint64_t, kWarpLanes> shifted{};
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      shifted[static_cast<std::size_t>(lane)] = lanes[static_cast<std::size_t>(lane)] +
                                                static_cast<std::uint64_t>(piece) * kMaxAccessBytes;
    }
    const SharedAccessCost cost =
        banks_.access(access.mask, LaneAddresses(shifted), kMaxAccessBytes);
    total.wavefronts += cost.wavefronts;
    total.ideal_wavefronts += cost.ideal_wavefronts;
    total.bank_conflicts += cost.bank_conflicts;
    total.max_ways = std::max(total.max_ways, cost.max_ways);
  }
  return total;
}

int MioPipe::distinct_addresses(const WarpAccess& access) {
  if (access.addresses == nullptr || access.mask == 0 || access.uniform) return 1;
  // The common case first: every active lane reads the same address (a uniform constant).
  const std::uint64_t first = access.addresses[std::countr_zero(access.mask)];
  bool uniform = true;
  if (access.mask == ~std::uint32_t{0}) {
    std::uint64_t diff = 0;  // differences OR-ed together (vectorizes; no branch per lane)
    for (int lane = 1; lane < kWarpLanes; ++lane) diff |= access.addresses[lane] ^ first;
    uniform = diff == 0;
  } else {
    for (std::uint32_t m = access.mask; m != 0 && uniform; m &= m - 1) {
      uniform = access.addresses[std::countr_zero(m)] == first;
    }
  }
  if (uniform) return 1;
  std::array<std::uint64_t, kWarpLanes> sorted{};
  int n = 0;
  for (std::uint32_t m = access.mask; m != 0; m &= m - 1) {
    sorted[static_cast<std::size_t>(n++)] = access.addresses[std::countr_zero(m)];
  }
  std::sort(sorted.begin(), sorted.begin() + n);
  return static_cast<int>(std::unique(sorted.begin(), sorted.begin() + n) - sorted.begin());
}

void MioPipe::issue(std::uint32_t warp_slot, std::uint32_t op_id, int smsp, MioKind kind,
                    const WarpAccess& access, engine::Cycle now) {
  Entry entry{warp_slot, op_id, now, 1, config_.shuffle_latency_cycles};
  switch (kind) {
    case MioKind::kSharedLoad:
    case MioKind::kSharedStore:
    case MioKind::kSharedAtomic: {
      const SharedAccessCost cost = shared_cost(access);
      // An access with no active lane still occupies the pipe for one cycle.
      entry.wavefronts = std::max(cost.wavefronts, 1);
      entry.latency = config_.shared_latency_cycles;
      if (kind == MioKind::kSharedLoad && cost.bank_conflicts > 0) {
        entry.wavefronts += config_.shared_conflict_extra_cycles;
      }
      const auto wavefronts = static_cast<std::uint64_t>(cost.wavefronts);
      const auto conflicts = static_cast<std::uint64_t>(cost.bank_conflicts);
      if (kind == MioKind::kSharedLoad) {
        ++counters_.shared_ld_requests;
        counters_.shared_ld_wavefronts += wavefronts;
        counters_.shared_ld_bank_conflicts += conflicts;
      } else if (kind == MioKind::kSharedStore) {
        ++counters_.shared_st_requests;
        counters_.shared_st_wavefronts += wavefronts;
        counters_.shared_st_bank_conflicts += conflicts;
      } else {
        ++counters_.shared_atom_requests;
        counters_.shared_atom_wavefronts += wavefronts;
      }
      break;
    }
    case MioKind::kShuffle:
      ++counters_.shuffle_ops;
      break;
    case MioKind::kOther:
      entry.latency = config_.shared_latency_cycles;
      break;
    case MioKind::kConstant:
      entry.wavefronts = distinct_addresses(access);
      entry.latency = config_.constant_latency_cycles;
      ++counters_.constant_requests;
      counters_.constant_wavefronts += static_cast<std::uint64_t>(entry.wavefronts);
      break;
  }
  Queue& queue = queues_[static_cast<std::size_t>(smsp)];
  const int depth = static_cast<int>(queue.slots.size());
  queue.slots[static_cast<std::size_t>((queue.head + queue.size) % depth)] = entry;
  ++queue.size;
  ++queued_;
  advance(now);
}

engine::Cycle MioPipe::Queue::next_ready() const {
  engine::Cycle earliest = returns.empty() ? engine::kSleep : returns.front().entry.enqueued;
  return size > 0 ? std::min(earliest, front().enqueued) : earliest;
}

engine::Cycle MioPipe::next_cycle() const {
  if (queued() == 0) return engine::kSleep;
  engine::Cycle earliest = engine::kSleep;
  for (const Queue& queue : queues_) earliest = std::min(earliest, queue.next_ready());
  return std::max(earliest, data_path_free_);
}

void MioPipe::return_load_data(std::uint32_t warp_slot, std::uint32_t op_id, int smsp,
                               int wavefronts, engine::Cycle ready) {
  const int lines = std::max(wavefronts, 1);
  // The first line's data is ready (lines - 1) cycles before the last's; unloaded, the load
  // completes at `ready` as without the data path.
  const auto lead = static_cast<engine::Cycle>(lines - 1);
  const engine::Cycle first = ready > lead ? ready - lead : 0;
  std::vector<Return>& returns = queues_[static_cast<std::size_t>(smsp)].returns;
  returns.push_back(Return{Entry{warp_slot, op_id, first, lines, 0}, return_sequence_++});
  std::push_heap(returns.begin(), returns.end(), later);
  ++returns_queued_;
}

engine::Cycle MioPipe::read_operands(std::uint32_t bytes, engine::Cycle now) {
  const auto wavefront_bytes =
      static_cast<std::uint32_t>(config_.shared_banks * config_.shared_bank_width_bytes);
  const std::uint32_t wavefronts = (bytes + wavefront_bytes - 1) / wavefront_bytes;
  counters_.shared_tensor_wavefronts += wavefronts;
  settle_operand_reads(now);
  operand_backlog_ += wavefronts;
  // At the earliest, the path serves nothing else from now on.
  return std::max(now, data_path_free_) + static_cast<engine::Cycle>(operand_backlog_);
}

void MioPipe::settle_operand_reads(engine::Cycle at) {
  // Cycles since the backlog was last settled in which no access held the path serve operands.
  const engine::Cycle from = std::max(data_path_free_, operand_settled_);
  if (at > from) {
    operand_backlog_ -= std::min<std::uint64_t>(operand_backlog_, at - from);
  }
  operand_settled_ = std::max(operand_settled_, at);
}

void MioPipe::advance(engine::Cycle now) {
  const int count = static_cast<int>(queues_.size());
  while (queued() > 0) {
    const engine::Cycle at = next_cycle();
    if (at > now) return;
    // Round robin over the sub-partitions with a client ready by `at`.
    for (int i = 0; i < count; ++i) {
      const int smsp = (round_robin_ + i) % count;
      Queue& queue = queues_[static_cast<std::size_t>(smsp)];
      if (queue.next_ready() <= at) {
        start_next(queue, at);
        round_robin_ = (smsp + 1) % count;
        break;
      }
    }
  }
}

void MioPipe::start_next(Queue& queue, engine::Cycle at) {
  if (queue.size > 0 &&
      (queue.returns.empty() || queue.front().enqueued <= queue.returns.front().entry.enqueued)) {
    start(queue, at);
    return;
  }
  std::pop_heap(queue.returns.begin(), queue.returns.end(), later);
  const Entry entry = queue.returns.back().entry;
  queue.returns.pop_back();
  --returns_queued_;
  start_entry(entry, at);
}

void MioPipe::start(Queue& queue, engine::Cycle at) {
  start_entry(queue.front(), at);
  queue.head = (queue.head + 1) % static_cast<int>(queue.slots.size());
  --queue.size;
  --queued_;
}

void MioPipe::start_entry(const Entry& entry, engine::Cycle at) {
  // Operand reads waiting for the path take one wavefront for each of this access's.
  settle_operand_reads(at);
  const std::uint64_t shared = std::min<std::uint64_t>(
      operand_backlog_, static_cast<std::uint64_t>(entry.wavefronts));
  operand_backlog_ -= shared;
  const auto wavefronts = static_cast<engine::Cycle>(entry.wavefronts) + shared;
  completions_.schedule(at + static_cast<engine::Cycle>(entry.latency) + wavefronts - 1,
                        entry.warp_slot, entry.op_id);
  data_path_free_ = at + wavefronts;
}

}  // namespace warpsim::core
