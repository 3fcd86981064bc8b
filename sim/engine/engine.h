// The discrete-event engine that drives every hardware model.
//
// It advances simulated time (picoseconds) from one instant to the next at which some component is
// due, skipping idle stretches entirely. A component is ticked only at the cycle its latest tick
// asked for, at its first cycle edge at or after each message's arrival on one of its ports, after
// a returned credit it was waiting for, or at an explicit `wake`. Each instant runs fixed phases,
// so results depend neither on registration order nor on thread count:
//   1. deliver  - messages whose arrival time has come become visible to their receivers (ports
//                 filter by arrival time, so this phase costs nothing);
//   2. evaluate - every due component's `tick` runs, optionally in parallel on the engine's
//                 InstantPool (instant_pool.h); sends are staged in the sender's side of the port,
//                 and the ticking thread records the cycle the tick asks for next;
//   3. commit   - in component-id order: the recorded cycles enter the event queue, opt-in commit
//                 hooks run, staged sends are published (waking receivers), pops return credits
//                 (waking stalled senders) and progress is recorded. After a parallel evaluate,
//                 the publishing runs on the pool too, each thread over the due components it
//                 owns (a port's two halves touch disjoint fields, port.h), and the wake-ups they
//                 owe are pushed afterwards, in thread order: the wake queue pops in (time, id)
//                 order whatever the order of pushes, so results stay the same.
// The serial steps read and write the engine's own per-component records (Schedule, Due), never a
// component's fields, so that a component's state stays in the caches of the core that ticks it.
// Component ids follow the components' names (sorted), never the order of registration.
//
// A watchdog turns "no progress for N ps" and "nothing scheduled while a component is busy" into
// warpsim::InternalError naming the stuck components with their dump_state. The progress gap is
// measured in simulated time, so a legitimate wait longer than the limit also trips it: choose the
// limit above the longest expected stall.
//
// Left out: parallelism across instants (optimistic or conservative PDES), checkpointing, and
// removing components once registered.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/engine/clock_domain.h"
#include "sim/engine/component.h"
#include "sim/engine/event_queue.h"
#include "sim/engine/instant_pool.h"
#include "sim/engine/port.h"
#include "sim/engine/wake_queue.h"

namespace warpsim::engine {

/// Engine-wide settings.
struct EngineOptions {
  /// Threads for the evaluate phase: 1 runs serially, 0 uses every hardware thread.
  unsigned threads = 1;
  /// Smallest number of components due in one instant for which evaluation runs in parallel.
  std::size_t parallel_threshold = 16;
  /// When the other threads did less than half their share of the ticks over a window of
  /// parallel instants (their cores are busy with other work), run the next instants serially
  /// before trying again, rather than wait for them. Results are the same either way.
  bool serial_fallback = true;
};

/// Whether a newly registered component is ticked at the current time's first cycle edge.
enum class Start { kAwake, kAsleep };

/// Why a run returned.
enum class StopReason {
  kIdle,       ///< no component has anything scheduled
  kTimeLimit,  ///< the next instant lies after RunLimits::until
  kPredicate,  ///< RunLimits::stop_when returned true
};

/// Optional limits of one run.
struct RunLimits {
  /// Process instants up to and including this time (ps).
  Time until = kNever;
  /// Checked after every instant; the run stops when it returns true.
  std::function<bool()> stop_when{};
};

/// The outcome of a run.
struct RunResult {
  Time end_time = 0;  ///< simulated time when the run returned (ps)
  StopReason reason = StopReason::kIdle;
};

/// Owns clock domains and ports, schedules components, runs the phases and the watchdog.
class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Adds a clock domain; the reference stays valid for the engine's life. Throws
  /// warpsim::InputError on a duplicate name or a frequency outside ClockDomain's range.
  const ClockDomain& add_clock_domain(std::string name, std::uint64_t frequency_khz);
  /// Adds a copy of `domain` (e.g. from ClockDomain::from_mhz); same rules as above.
  const ClockDomain& add_clock_domain(const ClockDomain& domain);
  /// The domain called `name`; throws warpsim::InputError when there is none.
  const ClockDomain& clock_domain(std::string_view name) const;

  /// Registers `component` (not owned; it must outlive the engine's runs). Throws
  /// warpsim::InternalError when it is already registered; duplicate names are reported by the
  /// next run as warpsim::InputError.
  void add(Component& component, Start start = Start::kAwake);

  /// Constructs, registers and owns a component of type C.
  template <class C, class... Args>
  C& emplace(Args&&... args) {
    auto owned = std::make_unique<C>(std::forward<Args>(args)...);
    C& ref = *owned;
    add(ref);
    owned_.push_back(std::move(owned));
    return ref;
  }

  /// Creates a port from `sender` to `receiver` (both registered here). Throws
  /// warpsim::InputError when the latency is 0 and warpsim::InternalError when an endpoint
  /// belongs to no or another engine.
  template <class T>
  Port<T>& connect(Component& sender, Component& receiver, const PortConfig& config) {
    check_endpoints(sender, receiver, config);
    auto port = std::make_unique<Port<T>>(sender, receiver, config, &now_);
    port->sender_id_ = sender.id_;  // final once the engine numbers its components (finalize)
    port->receiver_id_ = receiver.id_;
    Port<T>& ref = *port;
    ports_.push_back(std::move(port));
    return ref;
  }

  /// Ticks `component` at `cycle` of its domain (in addition to the cycles it asks for). Call it
  /// outside a run or from a commit hook; the cycle must start after the latest processed instant
  /// and not before the current time. Throws warpsim::InternalError otherwise.
  void wake(Component& component, Cycle cycle);

  /// Fires the watchdog after `limit_ps` picoseconds without progress; 0 disables it (default).
  void set_watchdog(Time limit_ps) { watchdog_ps_ = limit_ps; }
  /// Same limit given as `cycles` of the clock domain called `domain`.
  void set_watchdog_cycles(std::uint64_t cycles, std::string_view domain);

  /// Runs until no component is scheduled, the time limit or the predicate. Throws
  /// warpsim::InternalError when the watchdog fires, when the queue empties while a component is
  /// busy (deadlock), or when a tick returns a cycle that is not in the future.
  RunResult run(const RunLimits& limits = {});

  /// The current simulated time (ps).
  Time now() const { return now_; }
  /// Total ticks (events) executed.
  std::uint64_t total_ticks() const { return total_ticks_; }
  /// Distinct instants processed.
  std::uint64_t instants() const { return instants_; }
  /// Instants whose evaluate phase ran on several threads.
  std::uint64_t parallel_instants() const { return parallel_instants_; }
  /// Instants whose port publishing (commit phase) ran on several threads.
  std::uint64_t parallel_publishes() const { return parallel_publishes_; }
  /// Threads used by the evaluate phase.
  unsigned threads() const { return threads_; }
  /// Registered components; after a run, in id (name) order.
  std::span<Component* const> components() const { return components_; }

 private:

  void check_endpoints(const Component& sender, const Component& receiver,
                       const PortConfig& config) const;
  void finalize();
  struct Due;
  // Commit-phase steps for one due component: its next cycle in the event queue; its staged port
  // traffic (returns whether it made progress).
  void reschedule(const Due& d);
  bool publish(Component& c);
  // The two halves of a port's commit. publish_sends returns the messages' arrival time, kNever
  // when none was staged; publish_pops returns whether the sender waits for the credit.
  Time publish_sends(PortBase& port);
  bool publish_pops(PortBase& port);
  // Publishes the port traffic the ticks noted (on the pool after a parallel evaluate with
  // enough of it: thread t's share, then the owed wake-ups); returns whether a tick progressed.
  void publish_owned(unsigned thread);
  bool publish_ticked();
  // Schedule component `id` (once) at `cycle`, which starts at `time`.
  void owe_wake(ComponentId id, Cycle cycle, Time time);
  void owe_wake(Component& c, Cycle cycle) { owe_wake(c.id_, cycle, c.domain_->time_of(cycle)); }
  void wake_at_or_after(Component& c, Time t) { owe_wake(c, c.domain_->cycle_at_or_after(t)); }
  void collect_due();
  void commit_all_dirty();
  void commit_port(PortBase& port);
  void process_instant();
  void evaluate();
  struct Published;
  // Ticks one due component, records the cycle it asks for next, and notes in `out` its port
  // traffic and progress.
  static void tick_due(Due& d, Published& out);
  void tick_all();
  // Ticks the components of thread_due_[list] that no thread has claimed yet: from the front
  // when `thread` owns the list, else from the back.
  void tick_claimed(unsigned list, unsigned thread);
  // Updates the serial fallback after a parallel instant.
  void note_parallel_instant();
  void commit();
  [[noreturn]] void fire_watchdog(Time next) const;
  [[noreturn]] void fire_deadlock() const;

  EngineOptions options_;
  unsigned threads_;
  std::unique_ptr<InstantPool> pool_;
  std::vector<std::unique_ptr<ClockDomain>> domains_;
  std::vector<Component*> components_;
  std::vector<std::unique_ptr<Component>> owned_;
  std::vector<std::unique_ptr<PortBase>> ports_;
  EventQueue queue_;  // self-requested cycles, one per component
  WakeQueue wakes_;   // owed wake-ups
  // The scheduling state of one component, by id, kept apart from the component so that the
  // serial phases (collecting, rescheduling, owed wake-ups) never load the cache lines that the
  // thread ticking it writes.
  struct Schedule {
    Cycle self_cycle = kSleep;    // its entry in queue_
    Time last_owed = kNever;      // time of the latest owed wake-up pushed (drops repeats)
    std::uint64_t due_stamp = 0;  // instant at which it was last found due
    bool wants_commit = false;    // Component::wants_commit_, copied when a run starts
  };
  std::vector<Schedule> schedule_;
  // One due component of the current instant.
  struct Due {
    Component* component;
    ComponentId id;
    bool self;                   // due at its self-requested cycle
    Cycle cycle;                 // the cycle it is ticked at
    Cycle next_cycle = kSleep;   // written by its tick: the cycle it asks for next
    Time next_time = kNever;     // and when that cycle starts
  };
  std::vector<Due> due_;
  std::vector<std::vector<Due*>> thread_due_;  // due_ split by owning thread
  // Per thread: the unclaimed part of its due list, [front, back) packed as front << 32 | back.
  // A thread ticks its own list from the front, then helps with the others' rest from their
  // back, so that a thread that is late (descheduled on a busy machine, or given the costlier
  // components) does not hold the instant up, and most components stay with their owner.
  struct alignas(64) Claim {
    std::atomic<std::uint64_t> range{0};
    std::size_t ticked = 0;  // ticks run by this thread in the current instant
  };
  std::unique_ptr<Claim[]> claims_;
  // Per thread (one when serial): the components it ticked that have port traffic to publish,
  // whether any of them progressed, and the wake-ups their publishing owes.
  struct OwedWake {
    ComponentId id;
    Cycle cycle;
    Time time;
  };
  struct alignas(64) Published {
    std::vector<Component*> dirty;
    std::vector<OwedWake> wakes;
    bool progress = false;
  };
  std::unique_ptr<Published[]> published_;
  // Fewer components with port traffic than this in an instant are published serially: a pool
  // run costs more than publishing them from one core.
  static constexpr std::size_t kParallelPublishMin = 16;
  bool parallel_instant_ = false;  // the current instant's evaluate ran on the pool
  // Serial fallback (EngineOptions::serial_fallback): ticks of the current window of parallel
  // instants, those run by threads other than the caller's, and serial instants still to run.
  std::uint64_t window_instants_ = 0;
  std::uint64_t window_ticks_ = 0;
  std::uint64_t window_helped_ = 0;
  std::uint64_t serial_left_ = 0;
  std::vector<Due> self_due_;
  std::vector<Due> woken_due_;
  bool due_hook_ = false;  // some due component has a commit hook
  bool finalized_ = false;
  bool running_ = false;
  bool evaluating_ = false;
  Time now_ = 0;
  Time last_instant_ = 0;  // time of the latest processed instant (valid when instants_ > 0)
  Time last_progress_ = 0;
  Time watchdog_ps_ = 0;
  std::uint64_t total_ticks_ = 0;
  std::uint64_t instants_ = 0;
  std::uint64_t parallel_instants_ = 0;
  std::uint64_t parallel_publishes_ = 0;
};

}  // namespace warpsim::engine
