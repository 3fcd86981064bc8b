// The observer interface of the SM issue core: it sees every issued warp instruction (with its
// active mask: the per-warp mask history), every stall interval with its reason, every CTA launch
// and retirement, and every reconvergence point (BSSY, BSYNC, WARPSYNC). A timeline writer or a
// stepper implements it; with no observer attached the SM pays one predictable branch per event.
//
// Threading: an SM calls its observer from its own tick, and SMs may tick in parallel; give each
// SM its own observer or make the observer thread-safe. ObserverPair hands each event to two. Events of one SM arrive in cycle order
// per warp (stall intervals are reported when they end, so across warps they may interleave).
#pragma once

#include <cstdint>

#include "sim/core/stall_reason.h"
#include "sim/engine/clock_domain.h"
#include "traces/dim3.h"
#include "traces/isa/opcode_table.h"
#include "traces/lane_mask.h"

namespace warpsim::core {

/// One issued warp instruction.
struct IssueEvent {
  engine::Cycle cycle = 0;
  int sm = 0;
  int smsp = 0;
  int warp_slot = 0;              ///< SM-wide warp slot.
  std::uint32_t warp_in_cta = 0;  ///< Warp index within its CTA.
  int cta_slot = 0;
  std::uint32_t pc = 0;
  traces::OpcodeId opcode = 0;
  traces::LaneMask mask = 0;  ///< Active lanes.
};

/// An interval during which a warp was charged one reason.
struct StallEvent {
  int sm = 0;
  int warp_slot = 0;
  StallReason reason = StallReason::kMisc;
  engine::Cycle start = 0;
  std::uint64_t cycles = 0;
};

/// A CTA became resident or retired.
struct CtaEvent {
  engine::Cycle cycle = 0;
  int sm = 0;
  int cta_slot = 0;
  traces::Dim3 index{0, 0, 0};  ///< blockIdx.
  std::uint32_t warps = 0;
};

/// A warp passed a reconvergence point (BSSY, BSYNC or WARPSYNC) with `mask` active.
struct ReconvergenceEvent {
  engine::Cycle cycle = 0;
  int sm = 0;
  int warp_slot = 0;
  std::uint32_t pc = 0;
  traces::OpcodeId opcode = 0;
  traces::LaneMask mask = 0;
};

/// Receives the SM's events. Default implementations ignore them.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_issue(const IssueEvent& event) { (void)event; }
  virtual void on_stall(const StallEvent& event) { (void)event; }
  virtual void on_cta_launch(const CtaEvent& event) { (void)event; }
  virtual void on_cta_retire(const CtaEvent& event) { (void)event; }
  virtual void on_reconvergence(const ReconvergenceEvent& event) { (void)event; }
};

/// Passes every event to two observers (a timeline and a source profile at once).
class ObserverPair final : public Observer {
 public:
  ObserverPair(Observer& first, Observer& second) : a_(first), b_(second) {}
  void on_issue(const IssueEvent& e) override {
    a_.on_issue(e);
    b_.on_issue(e);
  }
  void on_stall(const StallEvent& e) override {
    a_.on_stall(e);
    b_.on_stall(e);
  }
  void on_cta_launch(const CtaEvent& e) override {
    a_.on_cta_launch(e);
    b_.on_cta_launch(e);
  }
  void on_cta_retire(const CtaEvent& e) override {
    a_.on_cta_retire(e);
    b_.on_cta_retire(e);
  }
  void on_reconvergence(const ReconvergenceEvent& e) override {
    a_.on_reconvergence(e);
    b_.on_reconvergence(e);
  }

 private:
  Observer& a_;
  Observer& b_;
};

}  // namespace warpsim::core
