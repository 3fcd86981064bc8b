// One CTA (thread block) of a kernel trace: its index in the grid, its place in a cluster when
// the kernel uses clusters (Hopper and later), and one WarpTrace per warp. A CtaTrace is a
// caller-owned buffer that sources refill: reset() and copy_cta() keep the warps' capacity, so
// streaming CTA after CTA does not allocate once the buffers have grown.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "traces/dim3.h"
#include "traces/warp_trace.h"

namespace warpsim::traces {

/// Where a CTA sits in its cluster (Accel-Sim v6 "cluster id / cluster cta / cluster rank").
struct ClusterPosition {
  Dim3 cluster_id{0, 0, 0};      ///< The cluster's index in the grid of clusters.
  Dim3 cta_in_cluster{0, 0, 0};  ///< The CTA's index within its cluster.
  uint32_t rank = 0;             ///< The CTA's linear rank within its cluster.
  friend bool operator==(const ClusterPosition&, const ClusterPosition&) = default;
};

/// The trace of one CTA.
struct CtaTrace {
  Dim3 index{0, 0, 0};                     ///< blockIdx.
  std::optional<ClusterPosition> cluster;  ///< Set when the source recorded cluster fields.
  std::vector<WarpTrace> warps;            ///< warps[i].warp_id is normally i.

  /// Makes the CTA hold `num_warps` empty warps with ids 0..num_warps-1, reusing buffers.
  void reset(size_t num_warps);

  /// Total warp instructions over all warps.
  uint64_t instruction_count() const;

  /// Bytes held by all warp buffers (capacity).
  size_t memory_bytes() const;

  /// Field-by-field equality, for round-trip tests.
  friend bool operator==(const CtaTrace&, const CtaTrace&) = default;
};

/// Copies `from` into `to`, reusing `to`'s buffers (no allocation when they are large enough).
void copy_cta(const CtaTrace& from, CtaTrace& to);

}  // namespace warpsim::traces
