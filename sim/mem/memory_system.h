// The memory system behind the SMs' L1s, assembled from one config: a crossbar from the SMs to the
// L2 slices, the slices (homes chosen by an address hash, split into partitions), a second
// crossbar from the slices to the HBM channels (chosen by the DRAM address mapping), and the
// channels. Used by tests and benches with mock SMs, and by the GPU assembly.
//
// Clock domains: the crossbars and slices run in the L2 domain, the channels in the memory
// domain; the SMs attach from their own domain. With SM and L2 clocks equal, an uncontended L2
// hit answers a request sent at cycle s at s + hit_round_trip_cycles(near): one cycle into the
// crossbar, noc.latency_cycles to the slice, the slice's hit latency (which includes the cycle
// back into the crossbar) and noc.latency_cycles back.
//
// Left out: the L1 (the SM model's), chiplet links (MI300X XCD-IOD, B200 die-to-die), the
// Infinity Cache, and TLBs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/mem/address_hash.h"
#include "sim/mem/address_mapping.h"
#include "sim/mem/dram_channel.h"
#include "sim/mem/interconnect.h"
#include "sim/mem/l2_slice.h"

namespace warpsim::mem {

/// Everything needed to build the memory system.
struct MemorySystemConfig {
  std::uint32_t sms = 2;                         ///< SM-side ports
  std::uint32_t l2_slices = 4;                   ///< slices over all partitions
  std::uint32_t l2_partitions = 2;               ///< partitions (slices and SMs split evenly)
  std::string l2_address_hash = "xor_fold";      ///< registered AddressHash name
  InterconnectConfig noc{.latency_cycles = 10};  ///< SMs <-> slices
  /// Per slice; partition, partitions and sms are filled in by the assembly.
  L2SliceConfig l2{};
  InterconnectConfig memory_crossbar{.latency_cycles = 2, .port_bytes_per_cycle = 0};
  DramGeometry dram_geometry{};                 ///< channels, banks, row size, interleave
  std::string dram_mapping = "ro_ba_bg_co_ch";  ///< registered AddressMapping name
  DramChannelConfig dram{};                     ///< per channel
};

/// Sums of the counters of all units.
struct MemorySystemCounters {
  L2Counters l2{};
  DramCounters dram{};
  CrossbarCounters noc_requests{};   ///< SMs -> slices
  CrossbarCounters noc_responses{};  ///< slices -> SMs
  CrossbarCounters mc_requests{};    ///< slices -> channels
  CrossbarCounters mc_responses{};   ///< channels -> slices
};

/// Owns and wires the units; registers them with the engine on construction.
class MemorySystem {
 public:
  /// Builds the units and registers them (names "mem.noc", "mem.l2[i]", "mem.mc",
  /// "mem.dram[i]"). Throws warpsim::InputError naming the field when the config is invalid.
  MemorySystem(engine::Engine& engine, const MemorySystemConfig& config,
               const engine::ClockDomain& l2_domain, const engine::ClockDomain& memory_domain);
  ~MemorySystem();
  MemorySystem(const MemorySystem&) = delete;
  MemorySystem& operator=(const MemorySystem&) = delete;

  /// Connects the next SM (already registered with the engine); call once per SM, in index
  /// order. The SM sends requests (with source_sm = its index) on `request` and pops `response`.
  /// Throws warpsim::InputError when more SMs attach than configured.
  MemLink attach_sm(engine::Component& sm);

  /// Installs the lines of [address, address + bytes) in their home slices (warm start).
  void warm(std::uint64_t address, std::uint64_t bytes, bool dirty = false);

  /// Cycles (L2 domain, equal SM clock) from an SM's send to its response for an uncontended
  /// L2 hit from a near (or far) SM.
  static std::uint64_t hit_round_trip_cycles(const MemorySystemConfig& config, bool near);

  /// Sums over all slices and channels.
  MemorySystemCounters counters() const;
  /// The address hash.
  const AddressHash& address_hash() const { return *hash_; }
  /// The DRAM address mapping.
  const AddressMapping& address_mapping() const { return *mapping_; }
  /// The slices, by global index.
  const std::vector<std::unique_ptr<L2Slice>>& slices() const { return slices_; }
  /// The channels, by index.
  const std::vector<std::unique_ptr<DramChannel>>& channels() const { return channels_; }
  /// SMs <-> slices crossbar.
  const Interconnect& noc() const { return *noc_; }
  /// Slices <-> channels crossbar.
  const Interconnect& memory_crossbar() const { return *mc_; }

 private:
  engine::Engine* engine_;
  MemorySystemConfig config_;
  std::unique_ptr<AddressHash> hash_;
  std::unique_ptr<AddressMapping> mapping_;
  std::unique_ptr<Interconnect> noc_;
  std::unique_ptr<Interconnect> mc_;
  std::vector<std::unique_ptr<L2Slice>> slices_;
  std::vector<std::unique_ptr<DramChannel>> channels_;
  std::uint32_t attached_sms_ = 0;
};

}  // namespace warpsim::mem
