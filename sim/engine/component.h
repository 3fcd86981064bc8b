// The base of every simulated hardware unit (an SM, an L2 slice, a DRAM channel, a NoC router).
//
// A component lives in one clock domain and is driven by its `tick`, which the engine calls only
// at the cycles the component asked for (the cycle its previous tick returned) or at which a
// message reaches one of its input ports. A tick returns the next cycle it needs, or kSleep, so
// idle stretches cost nothing. A component reports forward progress (an instruction retired, a
// request served) with `note_progress()`; the engine's watchdog uses it to detect livelock, and
// `busy()` plus `dump_state()` to detect deadlock and to describe a stuck unit.
//
// Threading contract: during the evaluate phase ticks of different components may run on different
// threads at the same instant, so a tick touches only its own state and its own side of its ports.
//
// Left out: components are not owned by the hierarchy they are named after; the name is a label.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/engine/clock_domain.h"
#include "sim/engine/event_queue.h"

namespace warpsim::engine {

class Engine;
class PortBase;

/// A clocked unit of the simulated machine. Derive from it and implement `tick`.
class Component {
 public:
  /// `name` is the unit's hierarchical name (e.g. "gpu.sm[12]"), unique within an engine;
  /// `domain` must outlive the component.
  Component(std::string name, const ClockDomain& domain);
  virtual ~Component();
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  /// Runs cycle `now` of the component's domain. Returns the next cycle the component needs
  /// (strictly greater than `now`), or kSleep to wait for a message.
  virtual Cycle tick(Cycle now) = 0;

  /// Hints that `tick` is about to run: a component may start loading the state its tick reads,
  /// so that the engine overlaps those loads with the previous component's tick. Must not change
  /// any state, and must read none that a tick writes (in a parallel instant another thread may
  /// be ticking the component meanwhile): addresses only.
  virtual void prefetch() const {}

  /// Second prefetch stage, called once the lines prefetch() asked for had time to arrive (the
  /// engine calls prefetch() two components ahead and this one component ahead): it may read
  /// those lines to follow pointers to the rest of the tick's state. Must not change any state;
  /// called only when no other thread can be ticking the component.
  virtual void prefetch_deep() const {}

  /// Optional hook run serially, in component-id order, after every tick of the instant; called
  /// only for components that called `enable_commit_hook()`. It may send and pop on the
  /// component's own ports and call `note_progress()`.
  virtual void commit(Cycle now);

  /// True while the component holds unfinished work (a request in flight, a warp not retired).
  /// Consulted by the watchdog only, never per cycle.
  virtual bool busy() const;

  /// Writes a human-readable description of the component's state, for watchdog reports.
  virtual void dump_state(std::ostream& out) const;

  /// The hierarchical name.
  const std::string& name() const { return name_; }
  /// The clock domain the component's cycles count in.
  const ClockDomain& domain() const { return *domain_; }
  /// How many times the engine has called `tick`.
  std::uint64_t tick_count() const { return ticks_; }
  /// The cycle of the latest tick (0 before the first).
  Cycle current_cycle() const { return now_cycle_; }
  /// The cycle the latest tick asked for, or kSleep (message arrivals may wake it earlier).
  Cycle next_wake_cycle() const { return wake_cycle_; }

 protected:
  /// Records that the component made forward progress in the current tick or commit hook.
  void note_progress() { progress_ = true; }
  /// Asks the engine to call `commit` after each of this component's ticks.
  void enable_commit_hook() { wants_commit_ = true; }

 private:
  friend class Engine;
  friend class PortBase;

  std::string name_;
  const ClockDomain* domain_;
  Engine* engine_ = nullptr;
  ComponentId id_ = 0;
  bool progress_ = false;
  bool wants_commit_ = false;
  std::uint64_t ticks_ = 0;
  // Written by the thread that ticks the component; the engine's serial phases keep their own
  // copy of what they need (Engine::Schedule), so they never load these lines.
  Cycle now_cycle_ = 0;
  // Self-requested next cycle and its time (the entry in the engine's EventQueue).
  Cycle wake_cycle_ = kSleep;
  Time wake_time_ = kNever;
  // Ports on which this component sent or popped since the last commit.
  std::vector<PortBase*> dirty_ports_;
};

}  // namespace warpsim::engine
