#include "sim/mem/l2_slice.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>

#include "arch/error.h"
#include "sim/mem/address_hash.h"

namespace warpsim::mem {

using engine::Cycle;
using engine::kSleep;

namespace {

bool later(const auto& a, const auto& b) {
  return a.ready > b.ready || (a.ready == b.ready && a.seq > b.seq);
}

// The id of the reads that fetch a partial sector before its write-back: their data only
// completes the write-back, so their responses are dropped (fetches for MSHRs use id 0).
constexpr std::uint64_t kPartialReadId = 1;

// Sectors that must hold valid data before the request can be answered.
std::uint8_t needed_sectors(const MemRequest& r, bool partial_writes_fetch) {
  if (r.op == MemOp::kWrite) {
    return partial_writes_fetch ? static_cast<std::uint8_t>(r.sector_mask & ~r.full_write_mask) : 0;
  }
  return r.sector_mask;
}

}  // namespace

L2Slice::L2Slice(std::string name, const engine::ClockDomain& domain, const L2SliceConfig& config)
    : Component(std::move(name), domain),
      config_(config),
      tags_(config.tags, this->name()),
      partial_(config.partial_lines, this->name() + ".partial_lines"),
      mshr_(config.mshr, this->name()),
      lookup_rate_(config.sectors_per_cycle),
      link_rate_(config.partition_link_bytes_per_cycle, config.partition_link_burst_cycles),
      coalescer_([&] {
        RequestCoalescerConfig c = config.coalescer;
        c.sources = config.partitions;
        for (const std::uint8_t source : config.sm_coalescer_sources) {
          c.sources = std::max<std::uint32_t>(c.sources, source + 1u);
        }
        return c;
      }()) {
  const std::string& n = this->name();
  if (config.sectors_per_cycle == 0) {
    throw InputError(n + ".sectors_per_cycle: expected at least 1 sector per cycle, got 0");
  }
  // Cycles to lookup tokens (one token is one sector's share, 1 / sectors_per_cycle).
  const auto tokens = [&](double cycles, const char* field) {
    if (!(cycles >= 0.0 && cycles <= 1e6)) {
      throw InputError(n + "." + field + ": expected 0 to 1e6 cycles, got " +
                       std::to_string(cycles));
    }
    return static_cast<std::uint32_t>(std::lround(cycles * config.sectors_per_cycle));
  };
  // A cost of 0 leaves such a sector its normal token.
  const auto sector_tokens = [&](double cycles, const char* field) {
    const std::uint32_t t = tokens(cycles, field);
    return cycles > 0 ? std::max(1u, t) : 1u;
  };
  partial_sector_tokens_ = sector_tokens(config.partial_write_cycles, "partial_write_cycles");
  partial_request_tokens_ =
      tokens(config.partial_write_request_cycles, "partial_write_request_cycles");
  write_sector_tokens_ = sector_tokens(config.write_sector_cycles, "write_sector_cycles");
  atomic_sector_tokens_ = sector_tokens(config.atomic_sector_cycles, "atomic_sector_cycles");
  if (config.merge_sectors != 1 && config.merge_sectors != 2 && config.merge_sectors != 4) {
    throw InputError(n + ".partial_merge_bytes: expected 32, 64 or 128 bytes, got " +
                     std::to_string(config.merge_sectors * kSectorBytes));
  }
  if (config.fetch_sectors != 1 && config.fetch_sectors != 2 && config.fetch_sectors != 4) {
    throw InputError(n + ".fetch_sectors: expected 1, 2 or 4 sectors, got " +
                     std::to_string(config.fetch_sectors));
  }
  if (config.hit_latency_far_cycles < config.hit_latency_near_cycles) {
    throw InputError(n + ".hit_latency_far_cycles: expected at least hit_latency_near_cycles (" +
                     std::to_string(config.hit_latency_near_cycles) + "), got " +
                     std::to_string(config.hit_latency_far_cycles));
  }
  if (config.response_queue_entries == 0) {
    throw InputError(n + ".response_queue_entries: expected at least 1 entry, got 0");
  }
  const std::uint32_t min_outbound = outbound_needed(MemRequest{.op = MemOp::kWrite});
  if (config.outbound_queue_entries < min_outbound) {
    throw InputError(n + ".outbound_queue_entries: expected at least " +
                     std::to_string(min_outbound) + " entries, got " +
                     std::to_string(config.outbound_queue_entries));
  }
  if (config.partitions == 0 || config.partition >= config.partitions) {
    throw InputError(n + ".partition: expected a partition below partitions (" +
                     std::to_string(config.partitions) + "), got " +
                     std::to_string(config.partition));
  }
  if (config.sms == 0) throw InputError(n + ".sms: expected at least 1 SM, got 0");
  if (!config.sm_partitions.empty()) {
    const bool bad = std::any_of(config.sm_partitions.begin(), config.sm_partitions.end(),
                                 [&](std::uint8_t p) { return p >= config.partitions; });
    if (config.sm_partitions.size() != config.sms || bad) {
      throw InputError(n + ".sm_partitions: expected one partition below " +
                       std::to_string(config.partitions) + " for each of the " +
                       std::to_string(config.sms) + " SMs, got " +
                       std::to_string(config.sm_partitions.size()) + " entries");
    }
  }
  if (!config.sm_coalescer_sources.empty()) check_coalescer_sources();
  if (config.coalescer.entries > (1u << 16)) {
    throw InputError(n + ".coalescer.entries: expected at most 65536 slots, got " +
                     std::to_string(config.coalescer.entries));
  }
  if (config.coalescer.entries > 0 &&
      (config.coalescer.followers == 0 || config.coalescer.followers > 64)) {
    throw InputError(n + ".coalescer.followers: expected 1 to 64 reads per slot, got " +
                     std::to_string(config.coalescer.followers));
  }
  // Responses in the hit pipeline (up to the far latency × lookups per cycle) plus the queue.
  response_capacity_ = config.response_queue_entries +
                       std::size_t{config.hit_latency_far_cycles} * config.sectors_per_cycle;
  responses_.reserve(response_capacity_ +
                     std::size_t{config.mshr.entries} * config.mshr.targets_per_entry +
                     std::size_t{config.coalescer.entries} * config.coalescer.followers);
  outbound_.reserve(config.outbound_queue_entries);
}

void L2Slice::set_upstream(const MemLink& link) {
  upstream_ = link;
  out_latency_cycles_ = domain().cycle_at_or_after(link.response->latency());
  const auto check = [&](const char* field, std::uint32_t value) {
    if (value < out_latency_cycles_) {
      throw InputError(name() + "." + field + ": expected at least the response port's " +
                       std::to_string(out_latency_cycles_) + " cycle(s), got " +
                       std::to_string(value));
    }
  };
  check("hit_latency_near_cycles", config_.hit_latency_near_cycles);
  check("fill_latency_cycles", config_.fill_latency_cycles);
}

void L2Slice::set_downstream(const MemLink& link) { downstream_ = link; }

void L2Slice::set_column(std::vector<L2Slice*> column) {
  if (column.size() != config_.partitions || column[config_.partition] != this) {
    throw InternalError(name() + ": a column needs one slice per partition, this one included");
  }
  column_ = std::move(column);
}

void L2Slice::install_copy(std::uint64_t line, std::uint8_t sectors) {
  ++counters_.copy_fills;
  write_back(tags_.access(line, sectors, 0));
}

std::uint32_t L2Slice::outbound_needed(const MemRequest& request) const {
  // A fetch and an eviction's write-back; a write may also clean a line (the dirty limit). The
  // reads before partial lines' write-backs, and a displaced partial line's read and write-back,
  // may take the queue beyond its size (by 4 at most; its storage grows once), so that traffic
  // without partial lines queues as it would without the record.
  return request.op != MemOp::kRead && tags_.max_dirty_ways() != 0 ? 3 : 2;
}

void L2Slice::send_write_back(const LineState& line, std::uint8_t partial, bool deferrable) {
  // The DRAM merges a partial sector in its whole access unit: it reads and writes the unit.
  const std::uint8_t read =
      widen(static_cast<std::uint8_t>(partial & line.dirty_mask), config_.merge_sectors);
  if (read != 0) {
    counters_.partial_reads += sector_count(read);
    outbound_.push_back(MemRequest::read(line.line_address, read, kPartialReadId, 0));
  }
  const auto written = static_cast<std::uint8_t>(line.dirty_mask | read);
  const std::uint32_t n = sector_count(written);
  counters_.writeback_sectors += n;
  MemRequest write = MemRequest::write(line.line_address, written,
                                       static_cast<std::uint16_t>(n * kSectorBytes), 0, 0);
  write.deferrable = deferrable;
  outbound_.push_back(write);
}

void L2Slice::write_back(const TagAccess& access) {
  if (access.evicted) {
    ++counters_.evictions;
    const std::uint8_t partial = partial_.take(access.victim.line_address);
    if (access.victim.dirty_mask != 0) {
      ++counters_.dirty_evictions;
      send_write_back(access.victim, partial);
    }
  }
  if (access.cleaned) {
    ++counters_.dirty_cleanings;
    send_write_back(access.written_back, partial_.take(access.written_back.line_address));
  }
}

SliceContents::SliceContents(const L2SliceConfig& config, const std::string& name)
    : tags(config.tags, name), partial(config.partial_lines, name + ".partial_lines") {}

void L2Slice::exchange_contents(SliceContents& contents) {
  const CacheTags& tags = contents.tags;
  if (tags.sets() != tags_.sets() || tags.ways() != tags_.ways() ||
      contents.partial.entries() != partial_.entries()) {
    throw InternalError(name() + ": carried contents of " + std::to_string(tags.sets()) +
                        " sets x " + std::to_string(tags.ways()) + " ways and " +
                        std::to_string(contents.partial.entries()) +
                        " partial-line entries do not fit " + std::to_string(tags_.sets()) +
                        " x " + std::to_string(tags_.ways()) + " and " +
                        std::to_string(partial_.entries()));
  }
  std::swap(contents.tags, tags_);
  std::swap(contents.partial, partial_);
}

void L2Slice::warm(std::uint64_t line_address, std::uint8_t sector_mask, bool dirty) {
  const std::uint8_t mask = sector_mask & kAllSectors;
  tags_.access(line_of(line_address), mask, dirty ? mask : 0);
}

std::uint32_t L2Slice::sm_partition_of(std::uint32_t sm) const {
  return config_.sm_partitions.empty() ? sm_partition(sm, config_.sms, config_.partitions)
                                       : config_.sm_partitions[sm];
}

bool L2Slice::is_near(std::uint32_t sm) const { return sm_partition_of(sm) == config_.partition; }

void L2Slice::respond(const MemRequest& request, Cycle ready) {
  responses_.push_back({ready, next_seq_++, response_to(request)});
  std::push_heap(responses_.begin(), responses_.end(),
                 [](const auto& a, const auto& b) { return later(a, b); });
}

std::uint32_t L2Slice::coalescer_source(const MemRequest& request) const {
  return config_.sm_coalescer_sources.empty() ? partition_of(request)
                                              : config_.sm_coalescer_sources[request.source_sm];
}

void L2Slice::check_coalescer_sources() const {
  const std::string field = name() + ".sm_coalescer_sources";
  if (config_.sm_coalescer_sources.size() != config_.sms) {
    throw InputError(field + ": expected one source for each of the " +
                     std::to_string(config_.sms) + " SMs, got " +
                     std::to_string(config_.sm_coalescer_sources.size()) + " entries");
  }
  // A join answers the follower from the leader's response, so both must be near or both far.
  std::vector<int> partition(256, -1);
  for (std::uint32_t sm = 0; sm < config_.sms; ++sm) {
    int& p = partition[config_.sm_coalescer_sources[sm]];
    const int mine = static_cast<int>(sm_partition_of(sm));
    if (p >= 0 && p != mine) {
      throw InputError(field + ": source " + std::to_string(config_.sm_coalescer_sources[sm]) +
                       " has SMs next to partitions " + std::to_string(p) + " and " +
                       std::to_string(mine) + " (SM " + std::to_string(sm) +
                       "); a source's SMs must share one");
    }
    p = mine;
  }
}

std::uint32_t L2Slice::partition_of(const MemRequest& request) const {
  return sm_partition_of(request.source_sm);
}

void L2Slice::answer(const MemRequest& request, Cycle ready, bool hit) {
  respond(request, ready);
  if (request.op == MemOp::kRead && coalescer_.enabled()) {
    coalescer_.answered(request, coalescer_source(request), ready, hit,
                        [&](const MemRequest& joined, Cycle at) { respond(joined, at); });
  }
}

std::uint32_t L2Slice::lookup_cost(const MemRequest& request) const {
  const std::uint32_t sectors = sector_count(request.sector_mask);
  if (request.op == MemOp::kAtomic || request.op == MemOp::kReduction) {
    return sectors * atomic_sector_tokens_;
  }
  if (request.op != MemOp::kWrite) return sectors;
  const std::uint32_t partial =
      sector_count(static_cast<std::uint8_t>(request.sector_mask & ~request.full_write_mask));
  const std::uint32_t full = (sectors - partial) * write_sector_tokens_;
  if (partial == 0) return full;
  return full + partial * partial_sector_tokens_ + partial_request_tokens_;
}

std::uint8_t L2Slice::widen(std::uint8_t sectors) const {
  return widen(sectors, config_.fetch_sectors);
}

std::uint8_t L2Slice::widen(std::uint8_t sectors, std::uint32_t g) {
  std::uint8_t out = 0;
  const auto group = static_cast<std::uint8_t>((1u << g) - 1u);
  for (std::uint32_t first = 0; first < kSectorsPerLine; first += g) {
    if ((sectors >> first) & group) out = static_cast<std::uint8_t>(out | (group << first));
  }
  return out;
}

L2Slice::Lookup L2Slice::lookup(const MemRequest& request, Cycle now) {
  if (request.sector_mask == 0 || (request.sector_mask & ~kAllSectors) != 0 ||
      request.line_address % kLineBytes != 0) {
    throw InternalError(name() + ": request with a bad line address or sector mask");
  }
  const std::uint8_t needed = needed_sectors(request, config_.partial_writes_fetch);
  const std::uint8_t present = tags_.probe(request.line_address).valid_mask;
  const MshrTable::Index entry = mshr_.find(request.line_address);
  const std::uint8_t in_flight = mshr_.in_flight(entry);
  const std::uint8_t fetch = widen(needed & static_cast<std::uint8_t>(~(present | in_flight))) &
                             static_cast<std::uint8_t>(~(present | in_flight));
  // Sectors the request waits for: those fetched now and those already on their way.
  const auto wait_for = static_cast<std::uint8_t>(fetch | (needed & in_flight));
  const bool waits = wait_for != 0;
  const bool near = is_near(request.source_sm);
  // A far read's copy in the requester's partition (near-partition copies), and with
  // far_write_copies a far plain write's.
  L2Slice* copy = nullptr;
  std::uint8_t copy_present = 0;
  const bool copies_op = request.op == MemOp::kRead ||
                         (request.op == MemOp::kWrite && config_.far_write_copies);
  if (!near && !column_.empty() && copies_op) {
    copy = column_[partition_of(request)];
    copy_present = copy->tags_.probe(request.line_address).valid_mask;
  }
  const bool copy_hit = copy != nullptr && request.op == MemOp::kRead &&
                        (needed & ~copy_present) == 0 && (needed & in_flight) == 0;
  // Resources first, so a stalled request leaves no trace.
  if (responses_.size() >= response_capacity_) return Lookup::kNoResponseSlot;
  if (outbound_.size() + outbound_needed(request) > config_.outbound_queue_entries) {
    return Lookup::kNoOutboundSlot;
  }
  if (copy != nullptr && !copy_hit && !copy->can_take_copy()) return Lookup::kNoOutboundSlot;
  if (!copy_hit && waits && !mshr_.can_add_target(entry)) return Lookup::kNoMshr;

  const std::uint32_t sectors = sector_count(request.sector_mask);
  // What crosses to the other partition (a far read's data from its home, a far write's bytes)
  // takes the slice's share of the link: bytes x slices against the link's whole width.
  if (!near && !copy_hit) {
    const std::uint32_t bytes = request.op == MemOp::kRead ? sectors * kSectorBytes
                                                            : request.write_bytes;
    link_rate_.consume(static_cast<std::int64_t>(bytes) * config_.slices);
  }
  if (request.op == MemOp::kRead) {
    counters_.coalescable_sectors += sectors;
    coalescer_.lead(request, coalescer_source(request), now);
  } else {
    coalescer_.close(request.line_address);
  }
  ++counters_.requests;
  counters_.sectors += sectors;
  counters_.far_requests += near ? 0 : 1;
  if (copy_hit) {
    ++counters_.copy_hits;
    counters_.sectors_hit += sectors;
    counters_.sectors_read += sectors;
    copy->tags_.access(request.line_address, request.sector_mask, 0);
    answer(request, now + config_.hit_latency_near_cycles - out_latency_cycles_, true);
    return Lookup::kDone;
  }
  // A sector hits when its tag lookup finds it, valid or still being fetched (a request that
  // merges into an MSHR), or when a write covers it without needing a fetch. So Nsight Compute
  // counts them on the H200: a streaming copy's L2 hit rate is its write share, 50 %; a 1024³
  // wgmma GEMM, whose CTAs fetch the same tiles at once, hits 88 % (validate/reference/h200).
  auto served = static_cast<std::uint8_t>(present | in_flight);
  if (request.op == MemOp::kWrite) served = static_cast<std::uint8_t>(served | ~needed);
  const std::uint32_t hits = sector_count(request.sector_mask & served);
  counters_.sectors_hit += hits;
  counters_.sectors_miss += sectors - hits;
  switch (request.op) {
    case MemOp::kRead:
      counters_.sectors_read += sectors;
      break;
    case MemOp::kWrite:
      counters_.sectors_write += sectors;
      break;
    case MemOp::kAtomic:
      counters_.sectors_atom += sectors;
      break;
    case MemOp::kReduction:
      counters_.sectors_red += sectors;
      break;
  }

  const std::uint8_t dirty = request.op == MemOp::kRead ? 0 : request.sector_mask;
  const TagAccess access =
      tags_.access(request.line_address, request.sector_mask | fetch, dirty);
  if (copy != nullptr) {
    const auto copied = static_cast<std::uint8_t>(
        request.op == MemOp::kRead ? request.sector_mask | fetch : request.sector_mask);
    copy->install_copy(request.line_address, copied);
  }
  if (request.op != MemOp::kRead && !column_.empty()) {
    for (L2Slice* other : column_) {
      if (other != this && other != copy &&
          other->tags_.invalidate(request.line_address).valid_mask != 0) {
        ++counters_.copy_invalidations;
      }
    }
  }
  if (!waits) {
    const std::uint32_t latency =
        near ? config_.hit_latency_near_cycles : config_.hit_latency_far_cycles;
    answer(request, now + latency - out_latency_cycles_, true);
  } else {
    MshrTable::Index target = entry;
    if (target == MshrTable::kNone) {
      target = mshr_.allocate(request.line_address);
    } else {
      ++counters_.mshr_merges;
    }
    if (fetch != 0) {
      mshr_.mark_requested(target, fetch);
      counters_.fetched_sectors += sector_count(fetch);
      outbound_.push_back(MemRequest::read(request.line_address, fetch, 0, 0));
    }
    mshr_.add_target(target, request, wait_for);
  }
  // Write-backs leave after the fetch, which is on the critical path.
  write_back(access);
  if (request.op == MemOp::kWrite && partial_.enabled()) {
    const auto partial = static_cast<std::uint8_t>(request.sector_mask & ~request.full_write_mask);
    const std::uint32_t each = std::max<std::uint32_t>(1, request.write_bytes / sectors);
    const PartialDisplaced d =
        partial_.write(request.line_address, partial, each, request.full_write_mask,
                       static_cast<std::uint8_t>(present | in_flight | fetch));
    if (d.displaced) {
      ++counters_.partial_writebacks;
      // Only the partial sectors' units leave; the line's other dirty sectors stay dirty.
      const std::uint8_t units = widen(d.partial_sectors, config_.merge_sectors);
      const LineState line = tags_.clean(d.line_address, units);
      if (config_.merge_keeps_unit) tags_.validate(d.line_address, units);
      if (line.dirty_mask != 0) send_write_back(line, d.partial_sectors, true);
    }
  }
  return Lookup::kDone;
}

void L2Slice::take_fills(Cycle now) {
  if (downstream_.response == nullptr) return;
  while (downstream_.response->has_message()) {
    const MemResponse fill = downstream_.response->pop();
    if (fill.id == kPartialReadId) continue;  // a write-back's read: nothing waits for it
    const bool ours = mshr_.fill(fill.line_address, fill.sector_mask, [&](const MemRequest& r) {
      const std::uint32_t extra =
          is_near(r.source_sm) ? 0
                               : config_.hit_latency_far_cycles - config_.hit_latency_near_cycles;
      answer(r, now + config_.fill_latency_cycles + extra - out_latency_cycles_, false);
    });
    if (!ours) throw InternalError(name() + ": fill for a line with no MSHR entry");
    progress();
  }
}

void L2Slice::drain_outbound() {
  while (!outbound_.empty()) {
    if (downstream_.request == nullptr) throw InternalError(name() + ": no downstream port");
    if (!downstream_.request->can_send()) return;
    downstream_.request->send(outbound_.front());
    outbound_.pop_front();
  }
}

void L2Slice::send_responses(Cycle now) {
  const auto cmp = [](const auto& a, const auto& b) { return later(a, b); };
  while (!responses_.empty() && responses_.front().ready <= now) {
    if (!upstream_.response->can_send()) return;
    upstream_.response->send(responses_.front().response);
    std::pop_heap(responses_.begin(), responses_.end(), cmp);
    responses_.pop_back();
    progress();
  }
}

Cycle L2Slice::tick(Cycle now) {
  if (upstream_.request == nullptr || upstream_.response == nullptr) {
    throw InternalError(name() + ": no upstream ports");
  }
  take_fills(now);
  lookup_rate_.refill(now);
  link_rate_.refill(now);
  Cycle next = kSleep;
  Lookup stall = Lookup::kDone;
  while (upstream_.request->has_message()) {
    if (!lookup_rate_.available()) {
      next = lookup_rate_.next_available(now);
      break;
    }
    // A far request waits while the slice's share of the partition link is spent.
    if (!link_rate_.available() && !is_near(upstream_.request->front().source_sm)) {
      next = link_rate_.next_available(now);
      break;
    }
    const MemRequest& request = upstream_.request->front();
    // A read that joins one in flight in the coalescer is answered with it, without a lookup.
    if (request.op == MemOp::kRead && coalescer_.enabled() &&
        coalescer_.join(request, coalescer_source(request), now,
                        [&](const MemRequest& r, Cycle at) { respond(r, at); })) {
      const std::uint32_t n = sector_count(request.sector_mask);
      counters_.coalescable_sectors += n;
      counters_.coalesced_sectors += n;
      upstream_.request->pop();
      progress();
      continue;
    }
    stall = lookup(request, now);
    if (stall != Lookup::kDone) {
      ++counters_.stall_cycles;
      break;
    }
    lookup_rate_.consume(lookup_cost(request));
    upstream_.request->pop();
    progress();
  }
  drain_outbound();
  send_responses(now);
  if (!responses_.empty() && responses_.front().ready > now) {
    next = std::min(next, responses_.front().ready);
  }
  // A stall on a full MSHR table ends with a fill (a message wakes the slice); one on a full
  // queue ends when the queue drains: retry next cycle if it drained this cycle, otherwise the
  // credit that lets it drain wakes the slice (or the response's ready cycle above).
  const std::uint32_t outbound_reserve = outbound_needed(MemRequest{.op = MemOp::kWrite});
  const bool room = responses_.size() < response_capacity_ &&
                    outbound_.size() + outbound_reserve <= config_.outbound_queue_entries;
  if ((stall == Lookup::kNoResponseSlot || stall == Lookup::kNoOutboundSlot) && room) {
    next = std::min(next, now + 1);
  }
  return next;
}

bool L2Slice::busy() const {
  return mshr_.in_use() != 0 || !responses_.empty() || !outbound_.empty() ||
         coalescer_.waiting() != 0 ||
         (upstream_.request != nullptr && upstream_.request->next_arrival() != engine::kNever);
}

void L2Slice::dump_state(std::ostream& out) const {
  out << "mshr=" << mshr_.in_use() << "/" << mshr_.capacity() << " responses=" << responses_.size()
      << " outbound=" << outbound_.size() << " requests=" << counters_.requests
      << " hit_sectors=" << counters_.sectors_hit << " miss_sectors=" << counters_.sectors_miss;
}

}  // namespace warpsim::mem
