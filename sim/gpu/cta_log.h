// Where and when each CTA ran: one record per CTA with its SM, its slot there, and the SM cycles
// (from the kernel's start) at which it became resident and retired. The simulated counterpart of
// a probe that stamps %smid and %globaltimer at each CTA's start and end
// (validate/capture/probes/gemm_ctas.cu): it shows how the CTA distributor spread the grid over
// the SMs, how many CTAs each SM ran, and which SM's last CTA set the kernel's length.
//
// Each SM records into its own list (SMs tick in parallel); end_kernel() merges them ordered by
// launch cycle, then SM, then slot, so the log is identical for any thread count. One record (40
// bytes) per CTA.
//
// Left out: warp-level times (the timeline has them) and the dispatcher's own queueing.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/observer.h"
#include "traces/dim3.h"

namespace warpsim::gpu {

/// One CTA's residency.
struct CtaRecord {
  traces::Dim3 index{0, 0, 0};  ///< blockIdx
  int sm = 0;
  int slot = 0;                 ///< the SM's CTA slot
  std::uint64_t launch = 0;     ///< SM cycle it became resident
  std::uint64_t retire = 0;     ///< SM cycle its last warp retired
};

/// One kernel's CTAs, ordered by launch cycle, then SM, then slot.
struct KernelCtaLog {
  std::string name;
  std::vector<CtaRecord> ctas;
};

class CtaLog {
 public:
  /// A log of a GPU with `sms` SMs.
  explicit CtaLog(int sms);
  ~CtaLog();
  CtaLog(const CtaLog&) = delete;
  CtaLog& operator=(const CtaLog&) = delete;

  /// The observer to attach to SM `sm`.
  core::Observer& observer(int sm);
  /// Starts a kernel; the SMs' lists must be empty (end_kernel() emptied them).
  void start_kernel(const std::string& name);
  /// Merges the SMs' lists into the kernel's log and empties them. Throws InternalError when a
  /// CTA launched and never retired.
  void end_kernel();
  /// Every kernel ended so far, in order.
  const std::vector<KernelCtaLog>& kernels() const { return kernels_; }

  /// Writes a tab-separated table: kernel, cta_x, cta_y, cta_z, sm, slot, launch_cycle,
  /// retire_cycle, one row per CTA.
  void write_tsv(std::ostream& os) const;

 private:
  class SmRecorder;
  std::vector<std::unique_ptr<SmRecorder>> recorders_;
  std::vector<KernelCtaLog> kernels_;
};

}  // namespace warpsim::gpu
