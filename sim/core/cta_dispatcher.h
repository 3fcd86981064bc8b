// The CTA dispatcher (the GPU's compute work distributor) as an engine component in the SM clock
// domain. It runs one kernel at a time: it reads the kernel from a KernelSource, computes its
// occupancy (compute_occupancy), and places CTAs on SMs round robin over the SMs with a free CTA
// slot, in index order or in the order `sm_order` gives (the H200's distributor, measured: each
// kernel starts at the head of the order, and a grid smaller than the GPU uses the SMs
// `sm_priority` lists first), and refills an SM as its CTAs retire. CTAs are read from the source only when placed, so
// memory stays bounded by the resident CTAs. A cluster's CTAs are placed in the same cycle, or
// not at all. The next kernel starts `kernel_launch_overhead_cycles` after the previous one's
// last CTA retired.
//
// SMs learn of new CTAs in the dispatcher's commit hook (serial, after every tick of the
// instant): Sm::stage_cta hands the CTA over and an engine wake-up brings the SM's tick at its
// start cycle, which launches it (on the thread that ticks the SM). SMs report retired
// CTAs on a port (1 cycle). Per kernel the dispatcher records ncu's launch__occupancy_limit_*
// inputs (the Occupancy), the elapsed cycles, and the SMs' resident-warp and active-cycle sums
// for sm__warps_active.avg.pct_of_peak_sustained_active.
//
// A placed CTA holds its SM slot for `cta_launch_cycles` before its warps can issue (the SM's
// CTA launch); the default 0 starts it the next cycle.
//
// Left out: GPC/TPC topology (cluster CTAs may share an SM), concurrent kernels and streams,
// and preemption.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/core/occupancy.h"
#include "sim/core/sm.h"
#include "sim/core/sm_config.h"
#include "sim/engine/component.h"
#include "sim/engine/engine.h"
#include "sim/engine/port.h"
#include "traces/kernel_source.h"

namespace warpsim::core {

/// Dispatcher settings.
struct DispatcherConfig {
  /// Cycles from a kernel's last CTA retiring to the next kernel's first CTA launch (dependent
  /// launches in one stream: ~1 µs at 1.98 GHz [2nd]).
  std::uint64_t kernel_launch_overhead_cycles = 2000;
  /// Most CTAs placed per cycle over the GPU; 0 = unlimited.
  int max_ctas_per_cycle = 0;
  /// Cycles a kernel's elapsed time counts outside its CTAs (grid setup, end-of-kernel flush).
  std::uint64_t elapsed_overhead_cycles = 0;
  /// Cycles from a CTA's placement (its SM slot taken) to its warps' first issue: the SM's CTA
  /// launch (warp slots, registers and shared memory set up, parameters loaded). 0: the next cycle.
  std::uint64_t cta_launch_cycles = 0;
  /// The SMs in the order the round robin visits them (every SM once); empty: index order. With
  /// an order, each kernel starts at its head.
  std::vector<int> sm_order;
  /// With sm_order: the SMs a grid of fewer CTAs than SMs uses, first first (every SM once);
  /// empty: the first of sm_order.
  std::vector<int> sm_priority;
};

/// What the dispatcher records of one kernel.
struct KernelRecord {
  std::string name;                     ///< Kernel name.
  std::uint64_t id = 0;                 ///< Launch id from the source.
  Occupancy occupancy;                  ///< Theoretical occupancy and its limits.
  engine::Cycle start = 0;              ///< Cycle its first CTAs became resident.
  engine::Cycle end = 0;                ///< Cycle its last CTA retired.
  std::uint64_t ctas = 0;               ///< CTAs run.
  std::uint64_t warps_active_sum = 0;   ///< Resident warps summed over cycles and SMs.
  std::uint64_t cycles_active_sum = 0;  ///< Active cycles summed over SMs.
  int max_warps_per_sm = 0;             ///< Warp slots per SM.
  std::uint64_t overhead = 0;           ///< Elapsed cycles outside the CTAs (DispatcherConfig).

  /// Elapsed cycles (gpc__cycles_elapsed.max): first CTA launch to last retirement, plus the
  /// kernel's fixed overhead outside its CTAs.
  engine::Cycle elapsed() const { return end - start + overhead; }
  /// sm__warps_active.avg.pct_of_peak_sustained_active.
  double achieved_occupancy_pct() const;
};

/// What a kernel's launch asks of each CTA (the occupancy calculator's input).
KernelLaunch kernel_launch(const traces::KernelInfo& kernel);

/// Places the CTAs of a stream of kernels on SMs.
class CtaDispatcher final : public engine::Component {
 public:
  /// Registers itself with `engine` (the SMs must be registered already) and connects a retire
  /// port from each SM. `sms`, `source`, `config` and `engine` must outlive it.
  CtaDispatcher(std::string name, const engine::ClockDomain& domain, engine::Engine& engine,
                std::vector<Sm*> sms, traces::KernelSource& source, const SmConfig& config,
                DispatcherConfig dispatch = {});

  engine::Cycle tick(engine::Cycle now) override;
  void commit(engine::Cycle now) override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

  /// Kernels finished so far, in order.
  const std::vector<KernelRecord>& kernels() const { return records_; }
  /// True when the source has no more kernels and the last one finished.
  bool done() const { return exhausted_ && !active_; }

 private:
  bool start_next_kernel(engine::Cycle now);
  /// The position in order_ of the next SM with a free CTA slot (one exists: place checks).
  std::size_t next_free_position() const;
  void place(engine::Cycle now);

  engine::Engine* engine_;
  std::vector<Sm*> sms_;
  std::vector<engine::Port<CtaRetired>*> ports_;
  traces::KernelSource* source_;
  const SmConfig& config_;
  DispatcherConfig dispatch_;

  traces::KernelInfo kernel_;
  KernelRecord current_;
  std::vector<int> resident_;  // CTAs per SM, placed ones included
  std::size_t rr_ = 0;         // next position in order_ the round robin looks at
  std::vector<int> order_;         // the SMs in round-robin order
  std::vector<int> kernel_order_;  // those the current kernel uses, in that order
  bool active_ = false;
  bool exhausted_ = false;
  bool start_pending_ = false;
  bool end_pending_ = false;
  std::uint64_t fetched_ = 0;
  std::uint64_t retired_ = 0;
  engine::Cycle next_kernel_at_ = 0;
  std::vector<traces::CtaTrace> staged_;  // CTAs read this cycle, launched in commit
  std::vector<int> staged_sm_;
  std::size_t staged_count_ = 0;
  /// CTAs placed but still launching (cta_launch_cycles > 0): a FIFO ring, in placement order
  /// (due cycles never decrease); CTA buffers are swapped in and out, so they are reused.
  struct Launching {
    traces::CtaTrace cta;
    int sm = 0;
    engine::Cycle due = 0;
  };
  std::vector<Launching> launching_;
  std::size_t launching_head_ = 0;
  std::size_t launching_count_ = 0;
  /// Starts the CTAs whose launch completes at `cycle` (commit hook).
  void start_launched(engine::Cycle cycle);
  std::vector<KernelRecord> records_;
};

}  // namespace warpsim::core
