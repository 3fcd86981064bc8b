// The engine's commit phase (engine.h, phase 3): the due components' next cycles, their commit
// hooks, and publishing their ports' traffic, serially or, after a parallel evaluate, on the pool.
#include <algorithm>
#include <string>

#include "arch/error.h"
#include "sim/engine/engine.h"

namespace warpsim::engine {

bool Engine::publish(Component& c) {
  for (PortBase* p : c.dirty_ports_) commit_port(*p);
  c.dirty_ports_.clear();
  const bool progress = c.progress_;
  c.progress_ = false;
  return progress;
}

void Engine::commit() {
  for (const Due& d : due_) reschedule(d);
  bool progress = false;
  if (due_hook_) {
    // A hook's own traffic and progress are published with it (publishing order does not
    // matter: a port's halves and the wake queue's order do not depend on it).
    for (const Due& d : due_) {
      if (!schedule_[d.id].wants_commit) continue;
      d.component->commit(d.cycle);
      progress |= publish(*d.component);
    }
  }
  progress |= publish_ticked();
  if (progress) last_progress_ = now_;
}

void Engine::reschedule(const Due& d) {
  schedule_[d.id].self_cycle = d.next_cycle;
  if (d.next_time == kNever) {
    queue_.remove(d.id);
  } else {
    queue_.set(d.id, d.next_time);
  }
}

Time Engine::publish_sends(PortBase& port) {
  port.send_dirty_ = false;
  const Time arrival = now_ + port.latency_;
  const std::size_t n = port.publish_staged(arrival);
  port.sent_ += n;
  // The occupancy once both halves are done: pops_total_ already counts this instant's pops.
  port.max_occupancy_ =
      std::max(port.max_occupancy_, static_cast<std::size_t>(port.sent_ - port.pops_total_));
  return n != 0 ? arrival : kNever;
}

bool Engine::publish_pops(PortBase& port) {
  port.pop_dirty_ = false;
  port.popped_ = port.pops_total_;
  if (!port.sender_stalled_) return false;
  port.sender_stalled_ = false;
  return true;
}

void Engine::commit_port(PortBase& port) {
  if (port.send_dirty_) {
    const Time arrival = publish_sends(port);
    if (arrival != kNever) wake_at_or_after(*port.receiver_, arrival);
  }
  if (port.pop_dirty_ && publish_pops(port)) wake_at_or_after(*port.sender_, now_ + 1);
}

void Engine::publish_owned(unsigned thread) {
  // A port is in its sender's dirty list for its staged messages and in its receiver's for its
  // pops; each list does its own half, so two threads never touch one field.
  Published& out = published_[thread];
  auto owe = [&out](const ClockDomain& domain, ComponentId id, Time at_or_after) {
    const Cycle cycle = domain.cycle_at_or_after(at_or_after);
    out.wakes.push_back({id, cycle, domain.time_of(cycle)});
  };
  for (Component* c : out.dirty) {
    for (PortBase* p : c->dirty_ports_) {
      if (p->sender_ == c && p->send_dirty_) {
        const Time arrival = publish_sends(*p);
        if (arrival != kNever) owe(*p->receiver_domain_, p->receiver_id_, arrival);
      }
      if (p->receiver_ == c && p->pop_dirty_ && publish_pops(*p)) {
        owe(*p->sender_domain_, p->sender_id_, now_ + 1);
      }
    }
    c->dirty_ports_.clear();
  }
}

bool Engine::publish_ticked() {
  std::size_t dirty = 0;
  for (unsigned t = 0; t < threads_; ++t) dirty += published_[t].dirty.size();
  if (parallel_instant_ && dirty >= kParallelPublishMin) {
    ++parallel_publishes_;
    auto publish_own = [this](unsigned t) { publish_owned(t); };
    pool_->run(publish_own);
  } else {
    for (unsigned t = 0; t < threads_; ++t) {
      for (Component* c : published_[t].dirty) {
        for (PortBase* p : c->dirty_ports_) commit_port(*p);
        c->dirty_ports_.clear();
      }
    }
  }
  bool progress = false;
  for (unsigned t = 0; t < threads_; ++t) {
    Published& p = published_[t];
    for (const OwedWake& w : p.wakes) owe_wake(w.id, w.cycle, w.time);
    p.wakes.clear();
    p.dirty.clear();
    progress |= p.progress;
    p.progress = false;
  }
  return progress;
}

}  // namespace warpsim::engine
