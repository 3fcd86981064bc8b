// The memory system behind the SMs' L1s, assembled from one config: crossbars from the SMs to the
// L2 slices, the slices (homes chosen by an address hash, split into partitions), a crossbar from
// the slices to the HBM channels (chosen by the DRAM address mapping), optionally a memory-side
// cache slice in front of each channel, and the channels. Used by tests and benches with mock
// SMs, and by the GPU assembly.
//
// Chiplets (`dies` > 1): SMs, L2 slices and channels split evenly into dies by index.
//  - One home per line (`l2_per_die` false; B200): a line's home die is the die of its DRAM
//    channel (so homes interleave across the dies as finely as the channels do, and an L2 miss
//    never leaves its die), its slice there and the set in it chosen from the line's rank among
//    the die's lines (AddressMapping::die_line_index): the hash over the die's slices, the set
//    from the rank / slices per die, so that a footprint of up to the whole L2 fills every set.
//    Each die has its own SM crossbar ("mem.noc[d]") whose last output and last input are the
//    die-to-die link ("mem.d2d", die_link.h): a request for a line homed on the other die
//    crosses the link into that die's crossbar and its response crosses back. Two dies only.
//  - One L2 per die (`l2_per_die` true; MI300X XCDs): each die's slices cache any address for
//    the die's own SMs (the hash picks a slice of the die; dies' L2s are not kept coherent).
//    A die's misses and write-backs leave through its crossbar "mem.xcd[d]" and its link to the
//    I/O die ("mem.iod_link[d]"), into the memory crossbar shared by all dies.
//  - The memory-side cache (`memory_side_cache`; MI300X Infinity Cache): slice c
//    ("mem.mall[c]", an L2Slice with the cache's geometry and latencies) sits between the memory
//    crossbar and channel c and caches that channel's lines for every die.
//
// Clock domains: the crossbars, links and slices run in the L2 domain, the channels in the
// memory domain; the SMs attach from their own domain. With SM and L2 clocks equal, an
// uncontended L2 hit answers a request sent at cycle s at s + hit_round_trip_cycles(near): one
// cycle into the crossbar, noc.latency_cycles to the slice, the slice's hit latency (which
// includes the cycle back into the crossbar) and noc.latency_cycles back. A request crossing the
// die-to-die link adds, each way, the link's latency, the port cycle into the other crossbar and
// that crossbar's latency.
//
// Left out: the L1 (the SM model's), write-through of the per-die L2s, coherence between dies'
// L2s, and TLBs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/mem/address_hash.h"
#include "sim/mem/address_mapping.h"
#include "sim/mem/die_link.h"
#include "sim/mem/dram_channel.h"
#include "sim/mem/interconnect.h"
#include "sim/mem/l2_slice.h"
#include "sim/mem/l2_slice_group.h"

namespace warpsim::mem {

/// Everything needed to build the memory system.
struct MemorySystemConfig {
  std::uint32_t sms = 2;                         ///< SM-side ports
  std::uint32_t l2_slices = 4;                   ///< slices over all partitions (and dies)
  std::uint32_t l2_partitions = 2;               ///< partitions (slices and SMs split evenly)
  /// The partition next to each SM, by SM index; empty: SMs split into equal groups by index.
  std::vector<std::uint8_t> sm_partitions;
  std::string l2_address_hash = "xor_fold";      ///< registered AddressHash name
  std::uint32_t l2_slice_chunk_lines = 1;        ///< consecutive lines one slice takes
  InterconnectConfig noc{.latency_cycles = 10};  ///< SMs <-> slices (per die)
  /// Per slice; partition, partitions and sms are filled in by the assembly.
  L2SliceConfig l2{};
  InterconnectConfig memory_crossbar{.latency_cycles = 2, .port_bytes_per_cycle = 0};
  DramGeometry dram_geometry{};                 ///< channels, banks, row size, interleave
  std::string dram_mapping = "ro_ba_bg_co_ch";  ///< registered AddressMapping name
  DramChannelConfig dram{};                     ///< per channel
  std::uint32_t dies = 1;    ///< dies; SMs, slices and channels split evenly by index
  bool l2_per_die = false;   ///< each die's L2 caches any address for its own SMs
  DieLinkConfig die_link{};  ///< die-to-die (one home per line) or die-to-I/O-die (per-die L2)
  bool memory_side_cache = false;  ///< a memory-side cache slice in front of each channel
  L2SliceConfig msc{};             ///< one memory-side cache slice (partition fields unused)
};

/// Sums of the counters of all units.
struct MemorySystemCounters {
  L2Counters l2{};
  L2Counters mall{};  ///< memory-side cache slices
  DramCounters dram{};
  CrossbarCounters noc_requests{};   ///< SMs -> slices
  CrossbarCounters noc_responses{};  ///< slices -> SMs
  CrossbarCounters mc_requests{};    ///< slices -> channels
  CrossbarCounters mc_responses{};   ///< channels -> slices
  DieLinkCounters d2d{};             ///< all die links, both directions
};

/// Owns and wires the units; registers them with the engine on construction.
class MemorySystem {
 public:
  /// Builds the units and registers them (names "mem.noc", "mem.l2[i]", "mem.mc",
  /// "mem.dram[i]", and those of the file comment). Throws warpsim::InputError naming the
  /// field when the config is invalid.
  MemorySystem(engine::Engine& engine, const MemorySystemConfig& config,
               const engine::ClockDomain& l2_domain, const engine::ClockDomain& memory_domain);
  ~MemorySystem();
  MemorySystem(const MemorySystem&) = delete;
  MemorySystem& operator=(const MemorySystem&) = delete;

  /// Connects the next SM (already registered with the engine); call once per SM, in index
  /// order. The SM sends requests (with source_sm = its index) on `request` and pops `response`.
  /// Throws warpsim::InputError when more SMs attach than configured.
  MemLink attach_sm(engine::Component& sm);

  /// Installs the lines of [address, address + bytes) in their home slices (warm start; with
  /// one L2 per die, in every die's).
  void warm(std::uint64_t address, std::uint64_t bytes, bool dirty = false);

  /// The caches' contents from one kernel to the next (launch.cache_start WARM): every L2 and
  /// memory-side cache slice's tag array and record of partly written lines (less the complete
  /// lines' entries, which a kernel's end frees), in slice order. `take_cache_state` moves them
  /// out (leaving the slices empty); `restore_cache_state` moves them into a memory system built
  /// from the same configuration. Call before the first tick or after the last.
  std::vector<SliceContents> take_cache_state();
  void restore_cache_state(std::vector<SliceContents>&& state);

  /// Cycles of the L2 domain from an SM's send to its response for an uncontended
  /// L2 hit from a near (or far) SM.
  static std::uint64_t hit_round_trip_cycles(const MemorySystemConfig& config, bool near);

  /// The global index of the slice that serves `address` for SM `sm`.
  std::uint32_t slice_for(std::uint64_t address, std::uint32_t sm) const;

  /// Sums over all slices and channels.
  MemorySystemCounters counters() const;
  /// The address hash (over one die's slices when there are several dies).
  const AddressHash& address_hash() const { return *hash_; }
  /// The DRAM address mapping.
  const AddressMapping& address_mapping() const { return *mapping_; }
  /// The slices, by global index.
  const std::vector<std::unique_ptr<L2Slice>>& slices() const { return slices_; }
  /// The memory-side cache slices, by channel (empty without one).
  const std::vector<std::unique_ptr<L2Slice>>& memory_side_slices() const { return mall_; }
  /// The channels, by index.
  const std::vector<std::unique_ptr<DramChannel>>& channels() const { return channels_; }
  /// The die links (empty on one die).
  const std::vector<std::unique_ptr<DieLink>>& links() const { return links_; }
  /// SMs <-> slices crossbar (die 0's with several dies).
  const Interconnect& noc() const { return *nocs_.front(); }
  /// Slices <-> channels crossbar.
  const Interconnect& memory_crossbar() const { return *mc_; }

 private:
  void build_slices(engine::Engine& engine, const engine::ClockDomain& l2_domain);
  void build_dies(engine::Engine& engine, const engine::ClockDomain& l2_domain);
  void build_memory(engine::Engine& engine, const engine::ClockDomain& l2_domain,
                    const engine::ClockDomain& memory_domain);
  /// The home die of a line (one home per line): the die of its channel.
  std::uint32_t home_die(std::uint64_t line) const {
    return mapping_->map(line).channel / channels_per_die_;
  }
  /// The address the hash sees for a line with one home per line: its rank among its home
  /// die's lines (address_mapping.h), so that each die's slices split its lines evenly.
  std::uint64_t die_line(std::uint64_t line) const {
    return mapping_->die_line_index(line, config_.dies) * kLineBytes;
  }

  engine::Engine* engine_;
  MemorySystemConfig config_;
  std::uint32_t slices_per_die_ = 0;
  std::uint32_t sms_per_die_ = 0;
  std::uint32_t channels_per_die_ = 1;
  std::uint32_t sm_input_base_ = 0;  // crossbar inputs added before the SMs'
  std::unique_ptr<AddressHash> hash_;
  std::unique_ptr<AddressMapping> mapping_;
  std::vector<std::unique_ptr<Interconnect>> nocs_;  // per die
  std::vector<std::unique_ptr<Interconnect>> xcd_;   // per die, per-die L2 only
  std::unique_ptr<Interconnect> mc_;
  std::vector<std::unique_ptr<L2Slice>> slices_;
  std::vector<std::unique_ptr<L2SliceGroup>> groups_;  // columns, with near-partition copies
  std::vector<std::unique_ptr<DieLink>> links_;
  std::vector<std::unique_ptr<L2Slice>> mall_;
  std::vector<std::unique_ptr<DramChannel>> channels_;
  std::uint32_t attached_sms_ = 0;
};

}  // namespace warpsim::mem
