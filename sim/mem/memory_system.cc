#include "sim/mem/memory_system.h"

#include <algorithm>
#include <string>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

std::string indexed(const char* name, std::uint32_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

void add(L2Counters& t, const L2Counters& c) {
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
  t.dirty_cleanings += c.dirty_cleanings;
  t.partial_writebacks += c.partial_writebacks;
  t.partial_reads += c.partial_reads;
  t.mshr_merges += c.mshr_merges;
  t.stall_cycles += c.stall_cycles;
  t.far_requests += c.far_requests;
  t.copy_hits += c.copy_hits;
  t.copy_fills += c.copy_fills;
  t.copy_invalidations += c.copy_invalidations;
  t.coalescable_sectors += c.coalescable_sectors;
  t.coalesced_sectors += c.coalesced_sectors;
}

void add(CrossbarCounters& t, const CrossbarCounters& c) {
  t.messages += c.messages;
  t.bytes += c.bytes;
  t.credit_stalls += c.credit_stalls;
}

void check_split(const char* field, std::uint32_t count, std::uint32_t dies) {
  if (count == 0 || count % dies != 0) {
    throw InputError(std::string(field) + ": expected a positive multiple of dies (" +
                     std::to_string(dies) + "), got " + std::to_string(count));
  }
}

}  // namespace

MemorySystem::MemorySystem(engine::Engine& engine, const MemorySystemConfig& config,
                           const engine::ClockDomain& l2_domain,
                           const engine::ClockDomain& memory_domain)
    : engine_(&engine), config_(config) {
  const std::uint32_t dies = config.dies;
  if (dies == 0) throw InputError("dies: expected at least 1 die, got 0");
  if (dies > 1) {
    check_split("sms", config.sms, dies);
    check_split("l2_slices", config.l2_slices, dies);
    check_split("dram_geometry.channels", config.dram_geometry.channels, dies);
    if (!config.l2_per_die && dies != 2) {
      throw InputError("dies: one home per line across dies is modelled for 2 dies, got " +
                       std::to_string(dies) + " (or set l2_per_die)");
    }
  }
  slices_per_die_ = config.l2_slices / dies;
  sms_per_die_ = config.sms / dies;
  channels_per_die_ = std::max<std::uint32_t>(1, config.dram_geometry.channels / dies);
  hash_ = make_address_hash(config.l2_address_hash,
                            {.slices = slices_per_die_,
                             .partitions = dies > 1 ? 1 : config.l2_partitions,
                             .sms = sms_per_die_,
                             .chunk_lines = config.l2_slice_chunk_lines},
                            "l2_address_hash");
  mapping_ = make_address_mapping(config.dram_mapping, config.dram_geometry, "dram_mapping");
  mc_ = std::make_unique<Interconnect>(
      "mem.mc", l2_domain, config.memory_crossbar,
      [mapping = mapping_.get()](std::uint64_t line) { return mapping->map(line).channel; });
  engine.add(*mc_);
  build_slices(engine, l2_domain);
  build_dies(engine, l2_domain);
  build_memory(engine, l2_domain, memory_domain);
}

MemorySystem::~MemorySystem() = default;

void MemorySystem::build_slices(engine::Engine& engine, const engine::ClockDomain& l2_domain) {
  const std::uint32_t dies = config_.dies;
  for (std::uint32_t s = 0; s < config_.l2_slices; ++s) {
    L2SliceConfig c = config_.l2;
    c.partition = dies > 1 ? 0 : hash_->slice_partition(s);
    c.partitions = dies > 1 ? 1 : config_.l2_partitions;
    c.sms = config_.sms;
    if (dies == 1) c.sm_partitions = config_.sm_partitions;
    c.tags.seed = config_.l2.tags.seed + s;
    c.tags.index_divisor = config_.l2_per_die ? slices_per_die_ : config_.l2_slices;
    if (const std::uint64_t chunk = config_.l2_slice_chunk_lines; chunk > 1 && dies == 1) {
      // A slice sees one chunk in `slices`: it indexes a line by its rank among its own lines
      // (the chunk's rank among the slice's chunks, then the line within the chunk).
      c.tags.index_divisor = 1;
      c.tags.set_line = [chunk, slices = std::uint64_t{config_.l2_slices}](std::uint64_t line) {
        const std::uint64_t index = line >> 7;
        return index / chunk / slices * chunk + index % chunk;
      };
    }
    if (dies > 1 && !config_.l2_per_die) {
      // One home per line: a die's slices see every other chunk of lines, so they index (as the
      // hash chooses them) by the line's rank among its die's lines.
      c.tags.index_divisor = slices_per_die_;
      c.tags.set_line = [mapping = mapping_.get(), dies](std::uint64_t line) {
        return mapping->die_line_index(line, dies);
      };
    }
    slices_.push_back(std::make_unique<L2Slice>(indexed("mem.l2", s), l2_domain, c));
  }
  // With near-partition copies the slices of one column tick as one component (l2_slice_group.h).
  std::vector<engine::Component*> endpoint(config_.l2_slices);
  if (config_.l2.far_read_copies && config_.l2_partitions > 1 && dies == 1) {
    const std::uint32_t per_partition = config_.l2_slices / config_.l2_partitions;
    for (std::uint32_t k = 0; k < per_partition; ++k) {
      std::vector<L2Slice*> column;
      for (std::uint32_t p = 0; p < config_.l2_partitions; ++p) {
        column.push_back(slices_[p * per_partition + k].get());
      }
      groups_.push_back(
          std::make_unique<L2SliceGroup>(indexed("mem.l2_column", k), l2_domain, column));
      engine.add(*groups_.back(), engine::Start::kAsleep);
      for (std::uint32_t p = 0; p < config_.l2_partitions; ++p) {
        endpoint[p * per_partition + k] = groups_.back().get();
      }
    }
  } else {
    for (std::uint32_t s = 0; s < config_.l2_slices; ++s) {
      engine.add(*slices_[s], engine::Start::kAsleep);
      endpoint[s] = slices_[s].get();
    }
  }
  // The SM crossbars, one per die, each serving its die's slices.
  for (std::uint32_t d = 0; d < dies; ++d) {
    InterconnectConfig noc = config_.noc;
    noc.total_bytes_per_cycle /= dies;
    Interconnect::Route route;
    const AddressHash* hash = hash_.get();
    if (dies == 1 || config_.l2_per_die) {
      route = [hash](std::uint64_t line) { return hash->locate(line).slice; };
    } else {
      const std::uint32_t local = slices_per_die_;
      route = [this, hash, d, local](std::uint64_t line) {
        return home_die(line) == d ? hash->locate(die_line(line)).slice : local;
      };
    }
    nocs_.push_back(std::make_unique<Interconnect>(dies == 1 ? std::string("mem.noc")
                                                             : indexed("mem.noc", d),
                                                   l2_domain, noc, std::move(route)));
    engine.add(*nocs_.back());
  }
  for (std::uint32_t s = 0; s < config_.l2_slices; ++s) {
    slices_[s]->set_upstream(nocs_[s / slices_per_die_]->add_output(engine, *endpoint[s]));
  }
  if (!config_.l2_per_die) {
    for (std::uint32_t s = 0; s < config_.l2_slices; ++s) {
      slices_[s]->set_downstream(mc_->add_input(engine, *endpoint[s]));
    }
  }
}

void MemorySystem::build_dies(engine::Engine& engine, const engine::ClockDomain& l2_domain) {
  const std::uint32_t dies = config_.dies;
  if (dies == 1) return;
  const AddressHash* hash = hash_.get();
  if (!config_.l2_per_die) {
    // One link between the two dies' SM crossbars; each crossbar's last output sends to it and
    // its first input receives from it (so an SM's input index is 1 + its index in the die).
    auto link = std::make_unique<DieLink>("mem.d2d", l2_domain, config_.die_link);
    engine.add(*link, engine::Start::kAsleep);
    sm_input_base_ = 1;
    for (int e = 0; e < 2; ++e) {
      const std::uint32_t first_sm = static_cast<std::uint32_t>(e) * sms_per_die_;
      // The link's crossbar ports carry the whole cross-die traffic: they run at its width.
      const std::uint32_t width = config_.die_link.bytes_per_cycle;
      link->set_client(e, nocs_[e]->add_input(engine, *link, width));
      link->set_server(e, nocs_[e]->add_output(engine, *link, width), [first_sm](const MemResponse& r) {
        return static_cast<std::uint16_t>(1 + r.source_sm - first_sm);
      });
    }
    links_.push_back(std::move(link));
    return;
  }
  // One L2 per die: its slices reach the memory crossbar through the die's link.
  for (std::uint32_t d = 0; d < dies; ++d) {
    xcd_.push_back(std::make_unique<Interconnect>(
        indexed("mem.xcd", d), l2_domain,
        InterconnectConfig{.latency_cycles = 1, .port_bytes_per_cycle = 0},
        [](std::uint64_t) { return std::uint32_t{0}; }));
    engine.add(*xcd_.back());
    for (std::uint32_t k = 0; k < slices_per_die_; ++k) {
      L2Slice& slice = *slices_[d * slices_per_die_ + k];
      slice.set_downstream(xcd_.back()->add_input(engine, slice));
    }
    auto link = std::make_unique<DieLink>(indexed("mem.iod_link", d), l2_domain, config_.die_link);
    engine.add(*link, engine::Start::kAsleep);
    link->set_server(0, xcd_.back()->add_output(engine, *link), [hash](const MemResponse& r) {
      return static_cast<std::uint16_t>(hash->locate(r.line_address).slice);
    });
    link->set_client(1, mc_->add_input(engine, *link));
    links_.push_back(std::move(link));
  }
}

void MemorySystem::build_memory(engine::Engine& engine, const engine::ClockDomain& l2_domain,
                                const engine::ClockDomain& memory_domain) {
  const std::uint32_t channels = config_.dram_geometry.channels;
  for (std::uint32_t c = 0; c < channels; ++c) {
    auto channel = std::make_unique<DramChannel>(indexed("mem.dram", c), memory_domain,
                                                 config_.dram, *mapping_, c);
    engine.add(*channel, engine::Start::kAsleep);
    if (!config_.memory_side_cache) {
      channel->set_upstream(mc_->add_output(engine, *channel));
    } else {
      L2SliceConfig msc = config_.msc;
      msc.partition = 0;
      msc.partitions = 1;
      msc.sms = config_.sms;
      msc.far_read_copies = false;
      msc.far_write_copies = false;
      msc.tags.seed = config_.msc.tags.seed + c;
      // A channel's lines come in runs of interleave_bytes, one run per round of the channels.
      msc.tags.index_divisor =
          channels * std::max<std::uint32_t>(1, config_.dram_geometry.interleave_bytes / kLineBytes);
      auto slice = std::make_unique<L2Slice>(indexed("mem.mall", c), l2_domain, msc);
      engine.add(*slice, engine::Start::kAsleep);
      slice->set_upstream(mc_->add_output(engine, *slice));
      const std::size_t queue = config_.memory_crossbar.output_queue_entries;
      auto& request = engine.connect<MemRequest>(
          *slice, *channel, {.latency_ps = l2_domain.duration(1), .capacity = queue});
      auto& response = engine.connect<MemResponse>(
          *channel, *slice, {.latency_ps = memory_domain.duration(1), .capacity = queue});
      slice->set_downstream({&request, &response});
      channel->set_upstream({&request, &response});
      mall_.push_back(std::move(slice));
    }
    channels_.push_back(std::move(channel));
  }
}

MemLink MemorySystem::attach_sm(engine::Component& sm) {
  if (attached_sms_ >= config_.sms) {
    throw InputError("sms: " + std::to_string(config_.sms) + " SMs configured, but SM '" +
                     sm.name() + "' attaches as number " + std::to_string(attached_sms_ + 1));
  }
  const std::uint32_t die = attached_sms_ / sms_per_die_;
  ++attached_sms_;
  return nocs_[die]->add_input(*engine_, sm);
}

std::uint32_t MemorySystem::slice_for(std::uint64_t address, std::uint32_t sm) const {
  const std::uint64_t line = line_of(address);
  if (config_.dies == 1) return hash_->locate(line).slice;
  const std::uint32_t local = hash_->locate(config_.l2_per_die ? line : die_line(line)).slice;
  const std::uint32_t die = config_.l2_per_die ? sm / sms_per_die_ : home_die(line);
  return die * slices_per_die_ + local;
}

std::vector<SliceContents> MemorySystem::take_cache_state() {
  std::vector<SliceContents> state;
  state.reserve(slices_.size() + mall_.size());
  for (auto* group : {&slices_, &mall_}) {
    for (auto& slice : *group) {
      state.emplace_back(slice->config(), slice->name());
      slice->exchange_contents(state.back());
      state.back().partial.end_kernel();
    }
  }
  return state;
}

void MemorySystem::restore_cache_state(std::vector<SliceContents>&& state) {
  if (state.size() != slices_.size() + mall_.size()) {
    throw InternalError("memory system: " + std::to_string(state.size()) +
                        " carried slice contents for " +
                        std::to_string(slices_.size() + mall_.size()) + " cache slices");
  }
  std::size_t k = 0;
  for (auto* group : {&slices_, &mall_}) {
    for (auto& slice : *group) slice->exchange_contents(state[k++]);
  }
}

void MemorySystem::warm(std::uint64_t address, std::uint64_t bytes, bool dirty) {
  const std::uint32_t copies = config_.l2_per_die ? config_.dies : 1;
  for (std::uint64_t line = line_of(address); line < address + bytes; line += kLineBytes) {
    for (std::uint32_t d = 0; d < copies; ++d) {
      slices_[slice_for(line, d * sms_per_die_)]->warm(line, kAllSectors, dirty);
    }
  }
}

std::uint64_t MemorySystem::hit_round_trip_cycles(const MemorySystemConfig& config, bool near) {
  const std::uint64_t hit =
      near ? config.l2.hit_latency_near_cycles : config.l2.hit_latency_far_cycles;
  return 1 + 2 * std::uint64_t{config.noc.latency_cycles} + hit;
}

MemorySystemCounters MemorySystem::counters() const {
  MemorySystemCounters total;
  for (const auto& slice : slices_) add(total.l2, slice->counters());
  for (const auto& slice : mall_) add(total.mall, slice->counters());
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
  for (const auto& noc : nocs_) {
    add(total.noc_requests, noc->request_counters());
    add(total.noc_responses, noc->response_counters());
  }
  total.mc_requests = mc_->request_counters();
  total.mc_responses = mc_->response_counters();
  for (const auto& link : links_) {
    for (int from = 0; from < 2; ++from) {
      const DieLinkCounters& c = link->counters(from);
      total.d2d.requests += c.requests;
      total.d2d.responses += c.responses;
      total.d2d.bytes += c.bytes;
      total.d2d.width_stalls += c.width_stalls;
    }
  }
  return total;
}

}  // namespace warpsim::mem
