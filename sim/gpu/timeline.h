// A timeline of the simulation in the Chrome trace-event JSON format, which ui.perfetto.dev and
// chrome://tracing load: one process per SM, one thread per warp slot, a slice per issued
// instruction (named by its mnemonic, with the PC and active mask) and per stall interval (named
// by ncu's stall reason), and instant events for CTA launches, retirements and reconvergence
// points. Times are microseconds of simulated time (SM cycles over the SM clock).
//
// Each SM records into its own buffer (SMs tick in parallel), and write() merges them in SM order,
// so the file is identical for any thread count. A cap on recorded events keeps long runs bounded;
// the file then says how many were dropped.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/observer.h"
#include "traces/isa/opcode_table.h"

namespace warpsim::gpu {

class Timeline {
 public:
  /// A timeline of `sms` SMs clocked at `sm_mhz`, keeping at most `max_events` events.
  Timeline(int sms, double sm_mhz, std::uint64_t max_events = 4'000'000);
  ~Timeline();

  /// The observer to attach to SM `sm`.
  core::Observer& observer(int sm);
  /// Names the opcodes of the kernel that starts at cycle `start_cycle`; the timeline keeps the
  /// table alive until it is written.
  void start_kernel(const std::string& name, std::shared_ptr<const traces::OpcodeTable> opcodes,
                    std::uint64_t start_cycle);
  /// Writes the trace-event JSON.
  void write(std::ostream& os) const;
  /// Events recorded and dropped so far.
  std::uint64_t recorded() const;
  std::uint64_t dropped() const;

 private:
  class SmRecorder;
  double sm_mhz_;
  std::uint64_t max_events_per_sm_;
  std::vector<std::unique_ptr<SmRecorder>> recorders_;
  std::vector<std::pair<std::string, std::uint64_t>> kernels_;
  const traces::OpcodeTable* opcodes_ = nullptr;  // the current kernel's
  std::vector<std::shared_ptr<const traces::OpcodeTable>> tables_;
};

}  // namespace warpsim::gpu
