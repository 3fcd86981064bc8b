#include "sim/replay/access_shape.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>

namespace warpsim::replay {

using traces::ncu::KernelProfile;
using traces::ncu::PcProfile;

// Global accesses whose lanes carry addresses: loads, stores and atomics, generic ones, and
// LDGSTS's global reads (a TMA copy moves a tensor box named by a descriptor, not lane addresses).
bool lane_addressed_global(const traces::OpcodeInfo& info) {
  return info.space == traces::MemSpace::kGlobal || info.space == traces::MemSpace::kGeneric ||
         (info.space == traces::MemSpace::kGlobalToShared && !info.has(traces::kOpTma));
}

// A TMA bulk copy (UTMALDG, UBLKCP, UTMASTG): it names a tensor box, not lane addresses.
bool tma_copy(const traces::OpcodeInfo& info) {
  return info.has(traces::kOpTma) && (info.space == traces::MemSpace::kGlobalToShared ||
                                      info.space == traces::MemSpace::kSharedToGlobal);
}

// The L2 sectors the kernel's TMA copies move, loads or stores: ncu counts their bytes at the
// SM (`l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld`, multicast bytes once per
// receiving SM), so loads take the L2's read sectors beyond the LSU's L1 misses when measured.
double tma_sectors(const KernelProfile& p, bool store) {
  if (store) {
    return p.metric("l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum").value_or(0) / 32;
  }
  const double xbar =
      p.metric("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum").value_or(0) / 32;
  const auto l2 = p.metric("lts__t_sectors_srcunit_tex_op_read.sum");
  if (!l2 || xbar <= 0) return xbar;
  const double lsu =
      p.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum").value_or(0);
  return std::clamp(*l2 - lsu, 0.0, xbar);
}

namespace {

// The L1 hit rate of global loads: their own sector counts when measured (the kernel's rate
// counts stores too, which never hit), else the kernel's rate.
double load_hit_rate(const KernelProfile& p) {
  const auto hits = p.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum");
  const auto sectors = p.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  if (hits && sectors && *sectors > 0) return *hits / *sectors;
  return p.l1_hit_rate_pct.value_or(0) / 100;
}

}  // namespace

Shape global_shape(double count, const PcProfile* measured, const KernelProfile& p,
                   double entry_sectors, double kind_sectors, bool store, bool sparse_loads,
                   std::optional<double> kind_unique) {
  Shape out;
  const double spr = entry_sectors / count;
  out.sectors = static_cast<uint32_t>(std::clamp(std::lround(spr), 1L, 32L));
  // Lines per request: the L1 tag lookups when measured; else a scattered request (sectors well
  // above the ideal) puts each sector in its own line, a coalesced one packs them.
  const double tags = measured ? measured->l1_tag_requests / count : 0;
  const double ideal = measured ? measured->l2_sectors_ideal : 0;
  const bool scattered = ideal > 0 && measured->l2_sectors > 1.5 * ideal;
  const long packed = (out.sectors + 3) / 4;
  const long lines = tags >= 1 ? std::lround(tags) : scattered ? out.sectors : packed;
  out.lines = static_cast<uint32_t>(std::clamp(lines, packed, static_cast<long>(out.sectors)));
  out.sparse = !store && sparse_loads && (out.sectors + out.lines - 1) / out.lines <= 2;
  // Unique sectors: loads from the DRAM bytes they cause (a sparse sector costs a 64 B fetch),
  // stores from the ideal sectors (each byte written once) or else the DRAM bytes.
  const double share = entry_sectors / std::max(kind_sectors, 1.0);
  double unique = entry_sectors;
  if (kind_unique) {
    unique = *kind_unique * share;
  } else if (store && ideal > 0) {
    unique = ideal;
  } else if (const double dram = store ? p.dram_write_bytes : p.dram_read_bytes; dram > 0) {
    unique = dram / (out.sparse ? 64 : 32) * share;
  }
  out.footprint = static_cast<uint64_t>(
      std::clamp(unique, static_cast<double>(out.sectors), std::max(entry_sectors, 1.0)));
  // Temporal locality: loads share sectors between neighbouring requests as often as L1 hit
  // (the rest of the reuse comes round once the footprint wraps: L2 hits); stores, which write
  // through L1, rewrite each unique sector as often as the sectors over the footprint say.
  const double l1_hit = std::clamp(load_hit_rate(p), 0.0, 31.0 / 32);
  // Atomics and reductions, done at the L2, revisit their sectors as stores do.
  const double group =
      store || kind_unique ? entry_sectors / static_cast<double>(out.footprint) : 1 / (1 - l1_hit);
  out.reuse_group = std::clamp(group, 1.0, 32.0);
  return out;
}

std::optional<double> atomic_unique_sectors(const KernelProfile& p, bool reduction) {
  static constexpr std::string_view kRed[] = {"lts__t_sectors_srcunit_tex_op_red_lookup_miss.sum"};
  static constexpr std::string_view kAtom[] = {
      "lts__t_sectors_srcunit_tex_aperture_device_op_atom_dot_alu_lookup_miss.sum",
      "lts__t_sectors_srcunit_tex_aperture_device_op_atom_dot_cas_lookup_miss.sum"};
  const std::span<const std::string_view> names =
      reduction ? std::span<const std::string_view>(kRed) : std::span<const std::string_view>(kAtom);
  double misses = 0;
  for (const std::string_view name : names) misses += p.metric(name).value_or(0);
  if (misses <= 0) return std::nullopt;
  return misses;
}

// Wavefronts per request over the conflict-free count: the measured wavefronts over the ideal
// ones; else ncu's N-way column, which counts the wavefronts a request takes (4 for a
// conflict-free 128-bit LDS or LDSM.x4), over the ideal count (one wavefront per 128 B a warp
// moves); else the measured wavefronts over that ideal count.
uint32_t shared_conflict_ways(const PcProfile& m, const traces::OpcodeInfo& info) {
  const double per_request = std::max(1.0, 32.0 * std::max<uint32_t>(info.width_bytes, 4) / 128);
  double ways = 1;
  if (m.shared_wavefronts > 0 && m.shared_wavefronts_ideal > 0) {
    ways = m.shared_wavefronts / m.shared_wavefronts_ideal;
  } else if (m.shared_conflict_ways > 0) {
    ways = m.shared_conflict_ways / per_request;
  } else if (m.shared_wavefronts > 0) {
    ways = m.shared_wavefronts / std::max(m.warp_insts * per_request, 1.0);
  }
  return static_cast<uint32_t>(std::clamp(std::lround(ways), 1L, 32L));
}

// True when the kernel's loads fetch more DRAM bytes than their L2 sectors hold: each miss
// brings a 64 B granule of which one sector is used.
bool loads_are_sparse(const KernelProfile& p, double load_sectors) {
  const double l2_reads = p.metric("lts__t_sectors_srcunit_tex_op_read.sum").value_or(load_sectors);
  return l2_reads > 0 && p.dram_read_bytes > 1.5 * 32 * l2_reads;
}

}  // namespace warpsim::replay
