#include "sim/mem/memory_system.h"

#include <string>

#include "arch/error.h"

namespace warpsim::mem {

MemorySystem::MemorySystem(engine::Engine& engine, const MemorySystemConfig& config,
                           const engine::ClockDomain& l2_domain,
                           const engine::ClockDomain& memory_domain)
    : engine_(&engine), config_(config) {
  hash_ = make_address_hash(
      config.l2_address_hash,
      {.slices = config.l2_slices, .partitions = config.l2_partitions, .sms = config.sms},
      "l2_address_hash");
  mapping_ = make_address_mapping(config.dram_mapping, config.dram_geometry, "dram_mapping");
  noc_ = std::make_unique<Interconnect>(
      "mem.noc", l2_domain, config.noc,
      [hash = hash_.get()](std::uint64_t line) { return hash->locate(line).slice; });
  mc_ = std::make_unique<Interconnect>(
      "mem.mc", l2_domain, config.memory_crossbar,
      [mapping = mapping_.get()](std::uint64_t line) { return mapping->map(line).channel; });
  engine.add(*noc_);
  engine.add(*mc_);
  for (std::uint32_t s = 0; s < config.l2_slices; ++s) {
    L2SliceConfig slice_config = config.l2;
    slice_config.partition = hash_->slice_partition(s);
    slice_config.partitions = config.l2_partitions;
    slice_config.sms = config.sms;
    slice_config.tags.seed = config.l2.tags.seed + s;
    auto slice =
        std::make_unique<L2Slice>("mem.l2[" + std::to_string(s) + "]", l2_domain, slice_config);
    engine.add(*slice, engine::Start::kAsleep);
    slice->set_upstream(noc_->add_output(engine, *slice));
    slice->set_downstream(mc_->add_input(engine, *slice));
    slices_.push_back(std::move(slice));
  }
  for (std::uint32_t c = 0; c < config.dram_geometry.channels; ++c) {
    auto channel = std::make_unique<DramChannel>("mem.dram[" + std::to_string(c) + "]",
                                                 memory_domain, config.dram, *mapping_, c);
    engine.add(*channel, engine::Start::kAsleep);
    channel->set_upstream(mc_->add_output(engine, *channel));
    channels_.push_back(std::move(channel));
  }
}

MemorySystem::~MemorySystem() = default;

MemLink MemorySystem::attach_sm(engine::Component& sm) {
  if (attached_sms_ >= config_.sms) {
    throw InputError("sms: " + std::to_string(config_.sms) + " SMs configured, but SM '" +
                     sm.name() + "' attaches as number " + std::to_string(attached_sms_ + 1));
  }
  ++attached_sms_;
  return noc_->add_input(*engine_, sm);
}

void MemorySystem::warm(std::uint64_t address, std::uint64_t bytes, bool dirty) {
  for (std::uint64_t line = line_of(address); line < address + bytes; line += kLineBytes) {
    slices_[hash_->locate(line).slice]->warm(line, kAllSectors, dirty);
  }
}

std::uint64_t MemorySystem::hit_round_trip_cycles(const MemorySystemConfig& config, bool near) {
  const std::uint64_t hit =
      near ? config.l2.hit_latency_near_cycles : config.l2.hit_latency_far_cycles;
  return 1 + 2 * std::uint64_t{config.noc.latency_cycles} + hit;
}

MemorySystemCounters MemorySystem::counters() const {
  MemorySystemCounters total;
  for (const auto& slice : slices_) {
    const L2Counters& c = slice->counters();
    L2Counters& t = total.l2;
    t.requests += c.requests;
    t.sectors += c.sectors;
    t.sectors_hit += c.sectors_hit;
    t.sectors_miss += c.sectors_miss;
    t.sectors_read += c.sectors_read;
    t.sectors_write += c.sectors_write;
    t.sectors_atom += c.sectors_atom;
    t.sectors_red += c.sectors_red;
    t.fetched_sectors += c.fetched_sectors;
    t.writeback_sectors += c.writeback_sectors;
    t.evictions += c.evictions;
    t.dirty_evictions += c.dirty_evictions;
    t.mshr_merges += c.mshr_merges;
    t.stall_cycles += c.stall_cycles;
    t.far_requests += c.far_requests;
  }
  for (const auto& channel : channels_) {
    const DramCounters& c = channel->counters();
    DramCounters& t = total.dram;
    t.bytes_read += c.bytes_read;
    t.bytes_written += c.bytes_written;
    t.reads += c.reads;
    t.writes += c.writes;
    t.activates += c.activates;
    t.precharges += c.precharges;
    t.row_hits += c.row_hits;
    t.row_misses += c.row_misses;
    t.row_conflicts += c.row_conflicts;
    t.bus_busy_cycles += c.bus_busy_cycles;
  }
  total.noc_requests = noc_->request_counters();
  total.noc_responses = noc_->response_counters();
  total.mc_requests = mc_->request_counters();
  total.mc_responses = mc_->response_counters();
  return total;
}

}  // namespace warpsim::mem
