#include "sim/engine/engine.h"

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <iterator>
#include <sstream>

#include "arch/error.h"
#include "sim/engine/instant_pool.h"
#include "sim/engine/stuck_report.h"

namespace warpsim::engine {

Engine::Engine(EngineOptions options) : options_(options) {
  threads_ = options_.threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency())
                                   : options_.threads;
  if (threads_ > 1) {
    pool_ = std::make_unique<InstantPool>(threads_);
    thread_due_.resize(threads_);
    claims_ = std::make_unique<Claim[]>(threads_);
  }
  published_ = std::make_unique<Published[]>(threads_);
}

Engine::~Engine() = default;

const ClockDomain& Engine::add_clock_domain(std::string name, std::uint64_t frequency_khz) {
  return add_clock_domain(ClockDomain(std::move(name), frequency_khz));
}

const ClockDomain& Engine::add_clock_domain(const ClockDomain& domain) {
  for (const auto& d : domains_) {
    if (d->name() == domain.name()) {
      throw InputError("clock domain '" + domain.name() + "' is defined twice");
    }
  }
  domains_.push_back(std::make_unique<ClockDomain>(domain));
  return *domains_.back();
}

const ClockDomain& Engine::clock_domain(std::string_view name) const {
  for (const auto& d : domains_) {
    if (d->name() == name) return *d;
  }
  std::string known;
  for (const auto& d : domains_) known += (known.empty() ? "" : ", ") + d->name();
  throw InputError("unknown clock domain '" + std::string(name) +
                   "' (known: " + (known.empty() ? "none" : known) + ")");
}

void Engine::add(Component& component, Start start) {
  if (component.engine_ != nullptr) {
    throw InternalError("component '" + component.name() + "' is registered twice");
  }
  if (running_) {
    throw InternalError("component '" + component.name() + "' registered during a run");
  }
  component.engine_ = this;
  component.id_ = static_cast<ComponentId>(components_.size());
  components_.push_back(&component);
  schedule_.emplace_back();
  finalized_ = false;
  if (start == Start::kAwake) wake_at_or_after(component, now_);
}

void Engine::check_endpoints(const Component& sender, const Component& receiver,
                             const PortConfig& config) const {
  const std::string name =
      config.name.empty() ? sender.name() + "->" + receiver.name() : config.name;
  if (sender.engine_ != this || receiver.engine_ != this) {
    throw InternalError("port '" + name + "': both endpoints must be registered with this engine");
  }
  if (config.latency_ps == 0) {
    throw InputError("port '" + name + "': latency_ps must be at least 1 ps, got 0");
  }
}

void Engine::set_watchdog_cycles(std::uint64_t cycles, std::string_view domain) {
  watchdog_ps_ = clock_domain(domain).duration(cycles);
}

void Engine::wake(Component& component, Cycle cycle) {
  if (component.engine_ != this) {
    throw InternalError("wake: component '" + component.name() + "' is not registered here");
  }
  if (evaluating_) {
    throw InternalError("wake: called for '" + component.name() + "' during the evaluate phase");
  }
  const Time t = component.domain().time_of(cycle);
  if (t < now_ || (instants_ > 0 && t <= last_instant_)) {
    throw InternalError("wake: cycle " + std::to_string(cycle) + " of '" + component.name() +
                        "' starts at " + std::to_string(t) +
                        " ps, not after the latest processed instant (" + std::to_string(now_) +
                        " ps)");
  }
  owe_wake(component, cycle);
}

void Engine::owe_wake(ComponentId id, Cycle cycle, Time time) {
  Schedule& s = schedule_[id];
  if (time == kNever || time == s.last_owed) return;
  s.last_owed = time;
  wakes_.push({time, id, cycle});
}

void Engine::finalize() {
  std::sort(components_.begin(), components_.end(),
            [](const Component* a, const Component* b) { return a->name() < b->name(); });
  for (std::size_t i = 0; i + 1 < components_.size(); ++i) {
    if (components_[i]->name() == components_[i + 1]->name()) {
      throw InputError("component name '" + components_[i]->name() + "' is used twice");
    }
  }
  std::vector<ComponentId> new_id(components_.size());
  for (std::size_t i = 0; i < components_.size(); ++i) {
    new_id[components_[i]->id_] = static_cast<ComponentId>(i);
  }
  wakes_.remap_ids(new_id);
  std::vector<Schedule> schedule(components_.size());
  for (std::size_t i = 0; i < components_.size(); ++i) schedule[new_id[i]] = schedule_[i];
  schedule_.swap(schedule);
  queue_.resize(components_.size());
  for (std::size_t i = 0; i < components_.size(); ++i) {
    Component& c = *components_[i];
    c.id_ = static_cast<ComponentId>(i);
    schedule_[i].self_cycle = c.wake_cycle_;
    if (c.wake_cycle_ != kSleep) queue_.set(c.id_, c.wake_time_);
  }
  for (const auto& p : ports_) {
    p->sender_id_ = p->sender_->id_;
    p->receiver_id_ = p->receiver_->id_;
  }
  due_.reserve(components_.size());
  for (auto& list : thread_due_) list.reserve(components_.size());
  for (unsigned t = 0; t < threads_; ++t) {
    published_[t].dirty.reserve(components_.size());
    published_[t].wakes.reserve(2 * ports_.size());  // a wake-up per half of each port
  }
  self_due_.reserve(components_.size());
  woken_due_.reserve(components_.size());
  finalized_ = true;
}

RunResult Engine::run(const RunLimits& limits) {
  if (running_) throw InternalError("Engine::run called during a run");
  if (!finalized_) finalize();
  struct Guard {
    Engine& engine;
    ~Guard() { engine.running_ = engine.evaluating_ = false; }
  } guard{*this};
  running_ = true;
  for (Component* c : components_) schedule_[c->id_].wants_commit = c->wants_commit_;
  if (instants_ == 0) last_progress_ = now_;
  commit_all_dirty();
  while (!queue_.empty() || !wakes_.empty()) {
    Time next = queue_.empty() ? kNever : queue_.top_time();
    if (!wakes_.empty()) next = std::min(next, wakes_.top().time);
    if (next > limits.until) {
      now_ = std::max(now_, limits.until);
      return {now_, StopReason::kTimeLimit};
    }
    if (watchdog_ps_ != 0 && next - last_progress_ > watchdog_ps_) fire_watchdog(next);
    now_ = next;
    process_instant();
    if (limits.stop_when && limits.stop_when()) return {now_, StopReason::kPredicate};
  }
  for (const Component* c : components_) {
    if (c->busy()) fire_deadlock();
  }
  return {now_, StopReason::kIdle};
}

void Engine::commit_all_dirty() {
  for (Component* c : components_) {
    for (PortBase* p : c->dirty_ports_) commit_port(*p);
    c->dirty_ports_.clear();
  }
}

void Engine::process_instant() {
  ++instants_;
  last_instant_ = now_;
  collect_due();
  total_ticks_ += due_.size();
  evaluating_ = true;
  evaluate();
  evaluating_ = false;
  commit();
}

void Engine::collect_due() {
  // Both queues yield ids in increasing order for one time; merge them into due_, dropping repeats.
  self_due_.clear();
  due_hook_ = false;
  while (!queue_.empty() && queue_.top_time() == now_) {
    const ComponentId id = queue_.pop();
    Schedule& s = schedule_[id];
    s.due_stamp = instants_;
    due_hook_ |= s.wants_commit;
    self_due_.push_back({components_[id], id, true, s.self_cycle});
    s.self_cycle = kSleep;
  }
  woken_due_.clear();
  while (!wakes_.empty() && wakes_.top().time == now_) {
    const Wake w = wakes_.pop();
    Schedule& s = schedule_[w.id];
    if (s.due_stamp == instants_) continue;
    s.due_stamp = instants_;
    due_hook_ |= s.wants_commit;
    woken_due_.push_back({components_[w.id], w.id, false, w.cycle});
  }
  due_.clear();
  if (woken_due_.empty()) {
    due_.swap(self_due_);
  } else if (self_due_.empty()) {
    due_.swap(woken_due_);
  } else {
    std::merge(self_due_.begin(), self_due_.end(), woken_due_.begin(), woken_due_.end(),
               std::back_inserter(due_), [](const Due& a, const Due& b) { return a.id < b.id; });
  }
}

void Engine::tick_due(Due& d, Published& out) {
  Component& c = *d.component;
  c.now_cycle_ = d.cycle;
  if (d.self) {
    c.wake_cycle_ = kSleep;
    c.wake_time_ = kNever;
  }
  const Cycle next = c.tick(d.cycle);
  ++c.ticks_;
  if (next != kSleep && next <= d.cycle) {
    throw InternalError("component '" + c.name() + "': tick at cycle " + std::to_string(d.cycle) +
                        " returned cycle " + std::to_string(next) +
                        ", which is not in the future");
  }
  const Time t = next == kSleep ? kNever : c.domain_->time_of(next);
  d.next_cycle = t == kNever ? kSleep : next;
  d.next_time = t;
  c.wake_cycle_ = d.next_cycle;
  c.wake_time_ = t;
  if (!c.dirty_ports_.empty()) out.dirty.push_back(&c);
  out.progress |= c.progress_;
  c.progress_ = false;
}

void Engine::tick_all() {
  const std::size_t n = due_.size();
  // Prefetches in two stages: a component's own lines two ticks ahead, what they point to one
  // tick ahead (each stage's loads overlap with a whole tick).
  if (n > 0) due_[0].component->prefetch();
  if (n > 1) due_[1].component->prefetch();
  if (n > 0) due_[0].component->prefetch_deep();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 2 < n) due_[i + 2].component->prefetch();
    if (i + 1 < n) due_[i + 1].component->prefetch_deep();
    tick_due(due_[i], published_[0]);
  }
}

void Engine::tick_claimed(unsigned list_index, unsigned thread) {
  const std::vector<Due*>& list = thread_due_[list_index];
  std::atomic<std::uint64_t>& range = claims_[list_index].range;
  const bool owner = list_index == thread;
  std::uint64_t r = range.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t front = r >> 32;
    const std::uint64_t back = r & 0xFFFFFFFFu;
    if (front >= back) return;
    const std::uint64_t claimed = owner ? front : back - 1;
    const std::uint64_t rest = owner ? (front + 1) << 32 | back : front << 32 | (back - 1);
    if (!range.compare_exchange_weak(r, rest, std::memory_order_relaxed)) continue;
    ++claims_[thread].ticked;
    const auto i = static_cast<std::size_t>(claimed);
    // Only the first stage: another thread may be ticking the next component (prefetch() reads
    // no state that a tick writes; prefetch_deep() does).
    if (owner && i + 1 < back) list[i + 1]->component->prefetch();
    tick_due(*list[i], published_[thread]);
    r = range.load(std::memory_order_relaxed);
  }
}

void Engine::note_parallel_instant() {
  // Expected share of the other threads: (threads - 1) / threads of the ticks; fall back when
  // they did less than half of it over 64 instants (then 4096 serial instants, then retry).
  constexpr std::uint64_t kWindow = 64;
  constexpr std::uint64_t kSerialInstants = 4096;
  const unsigned threads = pool_->threads();
  window_ticks_ += due_.size();
  window_helped_ += due_.size() - claims_[0].ticked;
  if (++window_instants_ < kWindow) return;
  if (window_helped_ * 2 * threads < window_ticks_ * (threads - 1)) serial_left_ = kSerialInstants;
  window_instants_ = window_ticks_ = window_helped_ = 0;
}

void Engine::evaluate() {
  parallel_instant_ = false;
  if (pool_ != nullptr && due_.size() >= std::max<std::size_t>(options_.parallel_threshold, 2)) {
    if (serial_left_ > 0) {
      --serial_left_;
      tick_all();
      return;
    }
    ++parallel_instants_;
    parallel_instant_ = true;
    // Each component has an owning thread (id mod threads): its state stays in one core's caches.
    const unsigned threads = pool_->threads();
    for (auto& list : thread_due_) list.clear();
    for (Due& d : due_) thread_due_[d.id % threads].push_back(&d);
    for (unsigned t = 0; t < threads; ++t) {
      claims_[t].range.store(thread_due_[t].size(), std::memory_order_relaxed);  // [0, size)
      claims_[t].ticked = 0;
    }
    // Whichever thread ticks a component, the results are the same (a tick touches only its
    // component's state); the owner usually does, so the state stays in its core's caches.
    auto tick_own = [this, threads](unsigned t) {
      for (unsigned k = 0; k < threads; ++k) tick_claimed((t + k) % threads, t);
    };
    pool_->run(tick_own);
    if (options_.serial_fallback) note_parallel_instant();
  } else {
    tick_all();
  }
}

void Engine::fire_watchdog(Time next) const {
  std::vector<const Component*> stuck;
  for (const Component* c : components_) {
    if (c->busy() || c->wake_cycle_ != kSleep) stuck.push_back(c);
  }
  std::ostringstream msg;
  msg << "watchdog: no progress for " << (next - last_progress_) << " ps (limit " << watchdog_ps_
      << " ps) since " << last_progress_ << " ps; next event at " << next << " ps\n";
  write_stuck_report(msg, stuck);
  throw InternalError(msg.str());
}

void Engine::fire_deadlock() const {
  std::vector<const Component*> stuck;
  for (const Component* c : components_) {
    if (c->busy()) stuck.push_back(c);
  }
  std::ostringstream msg;
  msg << "deadlock at " << now_ << " ps: no component is scheduled but some hold unfinished work\n";
  write_stuck_report(msg, stuck);
  throw InternalError(msg.str());
}

}  // namespace warpsim::engine
