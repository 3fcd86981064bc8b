// Event counters of an SM's memory pipeline, one plain struct per SM, under the Nsight Compute
// names they correspond to (documented per field; ".sum" over the SMs gives ncu's figure). Formulas
// such as the L1 sector hit rate are evaluated from the counts when statistics are dumped.
//
// Fidelity: counts are exact for the modelled events. Left out: ncu's counters of traffic warpsim
// does not model (texture, LDGSTS bypass, TMA multicast), and the arbitration conflicts the
// hardware's bank-conflict counter also includes (NCU.md).
#pragma once

#include <cstdint>

namespace warpsim::core {

/// Counters of the L1TEX t-stage for one address space and direction.
struct L1TagCounters {
  std::uint64_t requests = 0;  ///< Warp instructions (l1tex__t_requests_pipe_lsu_mem_<s>_op_<o>).
  std::uint64_t sectors = 0;   ///< Sectors looked up (l1tex__t_sectors_pipe_lsu_mem_<s>_op_<o>).
  std::uint64_t sector_hits = 0;    ///< …_lookup_hit: sectors valid in the tags at lookup.
  std::uint64_t sector_misses = 0;  ///< …_lookup_miss: sectors - sector_hits.
};

/// Counters of one SM's memory pipeline.
struct SmMemoryCounters {
  // Shared memory (MIO).
  std::uint64_t shared_ld_requests = 0;    ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld is
                                           ///< counted below; this is the instruction count.
  std::uint64_t shared_st_requests = 0;    ///< Shared stores (STS, STSM).
  std::uint64_t shared_atom_requests = 0;  ///< Shared atomics and reductions (ATOMS).
  /// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld: wavefronts of shared loads.
  std::uint64_t shared_ld_wavefronts = 0;
  /// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st: wavefronts of shared stores.
  std::uint64_t shared_st_wavefronts = 0;
  /// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom: wavefronts of shared atomics.
  std::uint64_t shared_atom_wavefronts = 0;
  /// Wavefronts of wgmma operands read from shared memory (part of memory_l1_wavefronts_shared).
  std::uint64_t shared_tensor_wavefronts = 0;
  /// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld: wavefronts beyond the ideal.
  std::uint64_t shared_ld_bank_conflicts = 0;
  /// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st: wavefronts beyond the ideal.
  std::uint64_t shared_st_bank_conflicts = 0;
  std::uint64_t shuffle_ops = 0;          ///< SHUFFLE-class instructions (one wavefront each).
  std::uint64_t constant_requests = 0;    ///< Constant loads.
  std::uint64_t constant_wavefronts = 0;  ///< Distinct constant addresses served (≥ requests).

  // L1 t-stage (LSU).
  L1TagCounters global_ld;  ///< l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld{,_lookup_*}
  L1TagCounters global_st;  ///< l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_st{,_lookup_*}
  L1TagCounters local_ld;   ///< l1tex__t_{requests,sectors}_pipe_lsu_mem_local_op_ld{,_lookup_*}
  L1TagCounters local_st;   ///< l1tex__t_{requests,sectors}_pipe_lsu_mem_local_op_st{,_lookup_*}
  std::uint64_t global_atom_requests = 0;  ///< l1tex__t_requests_pipe_lsu_mem_global_op_atom
  std::uint64_t global_atom_sectors = 0;   ///< l1tex__t_sectors_pipe_lsu_mem_global_op_atom
  std::uint64_t global_red_requests = 0;   ///< l1tex__t_requests_pipe_lsu_mem_global_op_red
  std::uint64_t global_red_sectors = 0;    ///< l1tex__t_sectors_pipe_lsu_mem_global_op_red
  /// LSU instructions without recorded lane addresses (timed as L1 hits, no traffic).
  std::uint64_t unaddressed_ops = 0;
  /// TMA copies' bytes: global → shared (l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld)
  /// and shared → global (l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st).
  std::uint64_t tma_ld_bytes = 0;
  std::uint64_t tma_st_bytes = 0;

  // MSHRs and the port to the memory system.
  std::uint64_t mshr_allocations = 0;  ///< MSHR entries allocated (lines missed, atomics sent).
  std::uint64_t mshr_merges = 0;       ///< Line lookups that joined an entry already in flight.
  std::uint64_t tag_stage_stalls = 0;  ///< Times the tag stage waited for an MSHR or the port.
  std::uint64_t read_requests = 0;     ///< Read requests sent (lts__t_requests from this SM).
  std::uint64_t read_sectors = 0;      ///< Sectors those reads asked for.
  std::uint64_t write_requests = 0;    ///< Write-through requests sent.
  std::uint64_t write_sectors = 0;     ///< Sectors those writes touched.
  std::uint64_t atomic_requests = 0;   ///< Atomic and reduction requests sent.
  std::uint64_t responses = 0;         ///< Responses received.

  /// Sectors looked up in the t-stage (loads and stores, global and local).
  std::uint64_t lookup_sectors() const {
    return global_ld.sectors + global_st.sectors + local_ld.sectors + local_st.sectors;
  }
  /// Of those, sectors that hit.
  std::uint64_t lookup_hits() const {
    return global_ld.sector_hits + global_st.sector_hits + local_ld.sector_hits +
           local_st.sector_hits;
  }
  /// l1tex__t_sector_hit_rate.pct = 100 × lookup_hits / lookup_sectors (0 when nothing was
  /// looked up).
  double l1_sector_hit_rate_pct() const {
    const std::uint64_t sectors = lookup_sectors();
    return sectors == 0 ? 0.0
                        : 100.0 * static_cast<double>(lookup_hits()) / static_cast<double>(sectors);
  }
};

}  // namespace warpsim::core
