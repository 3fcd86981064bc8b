// The launch description of one kernel in a trace: name, grid, block and cluster dimensions,
// registers per thread, static and dynamic shared memory, the ISA and binary version it was
// compiled for, the GPU it was recorded on, its CUDA stream, and the remaining Accel-Sim header
// fields (shared/local base addresses, tracer and NVBit versions, line info) so that a reader
// and a writer can round-trip them. Host-to-device copies issued before the launch travel with
// the kernel (memcpys_before) so that streams of launches keep their order. It also holds the
// OpcodeTable that the kernel's instruction opcode ids refer to.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/dim3.h"
#include "traces/isa/isa.h"
#include "traces/isa/opcode_table.h"

namespace warpsim::traces {

/// A host-to-device copy (Accel-Sim "MemcpyHtoD,<address>,<bytes>").
struct MemcpyEvent {
  uint64_t device_address = 0;
  uint64_t bytes = 0;
  friend bool operator==(const MemcpyEvent&, const MemcpyEvent&) = default;
};

/// Launch configuration and provenance of one kernel.
struct KernelInfo {
  std::string name;                   ///< Kernel (mangled) name.
  uint64_t id = 0;                    ///< Launch-order id within its trace (Accel-Sim "kernel id").
  Dim3 grid;                          ///< CTAs per grid.
  Dim3 block;                         ///< Threads per CTA.
  Dim3 cluster;                       ///< CTAs per cluster; (1,1,1) = no clusters.
  uint32_t registers_per_thread = 0;  ///< Registers per thread.
  uint32_t static_shared_bytes = 0;   ///< Static shared memory per CTA; sources that only know
                                      ///< the total (Accel-Sim "shmem") store it here.
  uint32_t dynamic_shared_bytes = 0;  ///< Dynamic shared memory per CTA.
  Isa isa = Isa::kSm90;               ///< ISA of the instruction mnemonics.
  uint32_t binary_version = 0;        ///< Compute capability × 10 (e.g. 90); 0 if unknown.
  std::string source_gpu;             ///< GPU the trace was recorded on; empty if unknown.
  uint64_t cuda_stream_id = 0;        ///< CUDA stream of the launch.
  uint64_t shared_base_address = 0;   ///< Generic address of the shared window (Accel-Sim).
  uint64_t local_base_address = 0;    ///< Generic address of the local window (Accel-Sim).
  uint32_t trace_version = 0;         ///< Accel-Sim tracer version (3–6); 0 otherwise.
  std::string nvbit_version;          ///< NVBit version that recorded it; empty otherwise.
  bool line_info = false;             ///< Instructions carry source line numbers.
  std::vector<MemcpyEvent> memcpys_before;     ///< Host→device copies issued before this launch.
  std::shared_ptr<const OpcodeTable> opcodes;  ///< Table the instruction opcode ids refer to.

  /// Threads per warp for the kernel's ISA (32, or 64 on CDNA).
  uint32_t warp_size() const { return traces::warp_size(isa); }
  /// grid.volume().
  uint64_t cta_count() const { return grid.volume(); }
  /// Warps per CTA: ceil(block threads / warp size).
  uint32_t warps_per_cta() const { return traces::warps_per_cta(block, warp_size()); }
  /// Static plus dynamic shared memory per CTA.
  uint64_t shared_bytes() const { return uint64_t{static_shared_bytes} + dynamic_shared_bytes; }

  /// Checks the launch configuration: non-empty name, every grid/block/cluster component ≥ 1,
  /// block ≤ 1024 threads, grid divisible by the cluster, an opcode
  /// table of the same ISA. Throws InputError naming `where`, the kernel and the field.
  void validate(const std::string& where) const;
};

}  // namespace warpsim::traces
