// The command choice of one DRAM channel, as a replaceable policy registered by name.
//
// Each memory cycle the channel lists, for every request of the queue it is serving (reads, or
// writes while draining), the next command that request needs (ACT, PRE, or the column command
// RD / WR), the first cycle that command's timing allows, and its age. The scheduler picks at most
// one candidate that is ready now. Built-ins:
//   "frfcfs" - first-ready, first-come-first-served (Rixner et al., ISCA 2000): the oldest ready
//              column command to an open row; otherwise the oldest ready ACT or PRE, except a PRE
//              that would close a row other queued requests still hit;
//   "fcfs"   - strictly in order: the oldest request's command when it is ready, else nothing.
//
// Left out: fairness caps on row-hit streaks (e.g. BLISS, ATLAS), and read/write priority, which
// the channel's write-drain watermarks decide.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "sim/engine/clock_domain.h"
#include "sim/mem/policy_registry.h"

namespace warpsim::mem {

/// A DRAM command.
enum class DramCommand : std::uint8_t { kActivate, kPrecharge, kRead, kWrite };

/// One request's next command.
struct DramCandidate {
  std::uint32_t queue_index = 0;  ///< the request's position in the channel's queue
  std::uint64_t age = 0;          ///< arrival order (smaller is older)
  DramCommand command = DramCommand::kActivate;
  bool closes_hit_row = false;  ///< a PRE of a row that other queued requests hit
  engine::Cycle earliest = 0;   ///< first cycle the command's timing allows
  /// True for RD / WR (the request hits the open row).
  bool is_column() const { return command == DramCommand::kRead || command == DramCommand::kWrite; }
};

/// Picks the command to issue.
class DramScheduler {
 public:
  /// Returned by pick when nothing should issue.
  static constexpr int kNone = -1;
  virtual ~DramScheduler();
  /// Index into `candidates` of the command to issue at cycle `now`, or kNone.
  virtual int pick(std::span<const DramCandidate> candidates, engine::Cycle now) const = 0;
  /// After pick returned kNone at `now`: the first cycle after `now` at which it could pick one
  /// of the same candidates (engine::kSleep: none). The channel sleeps until then, or until a
  /// request arrives or a command issues and changes the candidates, so a scheduler that passes
  /// over ready candidates (FR-FCFS's PRE of a row still hit) says when it would stop doing so.
  /// Default: the first cycle any candidate's timing allows.
  virtual engine::Cycle next_pick(std::span<const DramCandidate> candidates,
                                  engine::Cycle now) const;
};

/// The registry of schedulers; built-ins: "frfcfs", "fcfs".
PolicyRegistry<DramScheduler>& dram_scheduler_registry();

/// Builds the scheduler called `name` (config field `field` for errors).
std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name,
                                                   std::string_view field = "dram.scheduler");

}  // namespace warpsim::mem
