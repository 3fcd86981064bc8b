// How a replayed kernel's memory instructions touch memory, from the counters ncu measured: the
// sectors and 128 B lines of each global request (ncu's per-PC L2 sectors and L1 tag lookups),
// the unique footprint behind the kernel's DRAM bytes, the reuse between neighbouring requests
// that gives the L1 hit rate, shared-memory conflict degrees, and the sectors TMA copies move.
// Left out: reuse between different instructions and data-dependent addresses (the walk in
// profile_source.h lays each entry's footprint out on its own).
#pragma once

#include <cstdint>
#include <optional>

#include "traces/isa/opcode_info.h"
#include "traces/ncu/profile.h"

namespace warpsim::replay {

/// Global accesses whose lanes carry addresses: loads, stores and atomics, generic ones, and
/// LDGSTS's global reads (a TMA copy moves a tensor box named by a descriptor, not lane
/// addresses).
bool lane_addressed_global(const traces::OpcodeInfo& info);

/// A TMA bulk copy (UTMALDG, UBLKCP, UTMASTG).
bool tma_copy(const traces::OpcodeInfo& info);

/// The L2 sectors the kernel's TMA copies move, loads or stores (0 when ncu gave no bytes).
double tma_sectors(const traces::ncu::KernelProfile& p, bool store);

/// The access shape of one global entry.
struct Shape {
  uint32_t sectors = 1, lines = 1;  ///< Sectors and lines per request.
  bool sparse = false;     ///< Each miss fetches a 64 B granule of which one sector is used.
  uint64_t footprint = 1;  ///< Unique sectors.
  double reuse_group = 1;  ///< Neighbouring requests that read the same sectors (mean).
};

/// The shape of an entry executed `count` times (`measured`: its per-PC counters, or null),
/// moving `entry_sectors` of the `kind_sectors` its kind (loads, stores, atomics or reductions)
/// moves in the kernel. `kind_unique`, when measured, is the unique sectors of the entry's kind
/// (atomic_unique_sectors), of which the entry takes its share.
Shape global_shape(double count, const traces::ncu::PcProfile* measured,
                   const traces::ncu::KernelProfile& p, double entry_sectors, double kind_sectors,
                   bool store, bool sparse_loads, std::optional<double> kind_unique = std::nullopt);

/// The unique sectors the kernel's reductions (`reduction`) or atomics touch: their L2 lookup
/// misses, each sector missing once in the empty L2 ncu profiles from (--cache-control all), so
/// that a histogram's or index_add's updates land on the lines they hit on the GPU; nullopt when
/// ncu gave no such counter or none missed.
std::optional<double> atomic_unique_sectors(const traces::ncu::KernelProfile& p, bool reduction);

/// Wavefronts per request over the conflict-free count of a shared-memory instruction.
uint32_t shared_conflict_ways(const traces::ncu::PcProfile& m, const traces::OpcodeInfo& info);

/// True when the kernel's loads fetch more DRAM bytes than their L2 sectors hold.
bool loads_are_sparse(const traces::ncu::KernelProfile& p, double load_sectors);

}  // namespace warpsim::replay
