#include "sim/core/cta_dispatcher.h"

#include <algorithm>
#include <ostream>

#include "arch/error.h"

namespace warpsim::core {

using engine::Cycle;
using engine::kSleep;

double KernelRecord::achieved_occupancy_pct() const {
  if (cycles_active_sum == 0 || max_warps_per_sm == 0) return 0.0;
  return 100.0 * static_cast<double>(warps_active_sum) /
         (static_cast<double>(cycles_active_sum) * max_warps_per_sm);
}

namespace {

// Throws InputError unless `list` names each of `sms` SMs once.
void check_sm_list(const std::vector<int>& list, const char* field, std::size_t sms) {
  std::vector<bool> seen(sms, false);
  for (const int sm : list) {
    if (sm < 0 || static_cast<std::size_t>(sm) >= sms || seen[static_cast<std::size_t>(sm)]) {
      throw InputError(std::string("dispatcher config: field '") + field +
                       "' must name each of the " + std::to_string(sms) + " SMs once (entry " +
                       std::to_string(sm) + ")");
    }
    seen[static_cast<std::size_t>(sm)] = true;
  }
  if (list.size() != sms) {
    throw InputError(std::string("dispatcher config: field '") + field + "' has " +
                     std::to_string(list.size()) + " entries for " + std::to_string(sms) + " SMs");
  }
}

}  // namespace

CtaDispatcher::CtaDispatcher(std::string name, const engine::ClockDomain& domain,
                             engine::Engine& engine, std::vector<Sm*> sms,
                             traces::KernelSource& source, const SmConfig& config,
                             DispatcherConfig dispatch)
    : Component(std::move(name), domain),
      engine_(&engine),
      sms_(std::move(sms)),
      source_(&source),
      config_(config),
      dispatch_(dispatch),
      resident_(sms_.size(), 0) {
  if (sms_.empty()) throw InputError("CTA dispatcher '" + this->name() + "': no SMs");
  if (dispatch_.max_ctas_per_cycle < 0) {
    throw InputError("dispatcher config: field 'max_ctas_per_cycle' must be >= 0 (got " +
                     std::to_string(dispatch_.max_ctas_per_cycle) + ")");
  }
  if (dispatch_.sm_order.empty()) {
    for (std::size_t sm = 0; sm < sms_.size(); ++sm) order_.push_back(static_cast<int>(sm));
  } else {
    check_sm_list(dispatch_.sm_order, "sm_order", sms_.size());
    order_ = dispatch_.sm_order;
  }
  if (!dispatch_.sm_priority.empty()) {
    check_sm_list(dispatch_.sm_priority, "sm_priority", sms_.size());
  }
  kernel_order_ = order_;
  engine.add(*this);
  enable_commit_hook();
  engine::PortConfig port;
  port.latency_ps = domain.duration(1);
  for (Sm* sm : sms_) {
    port.name = sm->name() + "->" + this->name();
    engine::Port<CtaRetired>& p = engine.connect<CtaRetired>(*sm, *this, port);
    sm->set_retire_port(&p);
    ports_.push_back(&p);
  }
}

KernelLaunch kernel_launch(const traces::KernelInfo& kernel) {
  KernelLaunch launch;
  launch.threads_per_cta = static_cast<int>(kernel.block.volume());
  launch.registers_per_thread = static_cast<int>(kernel.registers_per_thread);
  launch.static_shared_bytes = kernel.static_shared_bytes;
  launch.dynamic_shared_bytes = kernel.dynamic_shared_bytes;
  launch.cluster_size = static_cast<int>(kernel.cluster.volume());
  return launch;
}

bool CtaDispatcher::start_next_kernel(Cycle now) {
  if (!source_->next_kernel(kernel_)) {
    exhausted_ = true;
    return false;
  }
  kernel_.validate(source_->describe());
  current_ = KernelRecord{};
  current_.name = kernel_.name;
  current_.id = kernel_.id;
  current_.occupancy = compute_occupancy(config_.limits, kernel_launch(kernel_));
  current_.start = now + 1;
  current_.overhead = dispatch_.elapsed_overhead_cycles;
  current_.max_warps_per_sm = config_.limits.max_warps_per_sm;
  if (!dispatch_.sm_order.empty()) {
    // Each kernel starts at the head of the order; a grid smaller than the GPU takes the first
    // of sm_priority and visits them in the order's order.
    rr_ = 0;
    kernel_order_ = order_;
    const std::uint64_t ctas = kernel_.cta_count();
    if (!dispatch_.sm_priority.empty() && ctas < sms_.size()) {
      std::vector<bool> chosen(sms_.size(), false);
      for (std::uint64_t i = 0; i < ctas; ++i) {
        chosen[static_cast<std::size_t>(dispatch_.sm_priority[i])] = true;
      }
      std::erase_if(kernel_order_, [&](int sm) { return !chosen[static_cast<std::size_t>(sm)]; });
    }
  }
  active_ = true;
  start_pending_ = true;
  fetched_ = 0;
  retired_ = 0;
  return true;
}

std::size_t CtaDispatcher::next_free_position() const {
  for (std::size_t i = 0; i < kernel_order_.size(); ++i) {
    const std::size_t at = (rr_ + i) % kernel_order_.size();
    if (resident_[static_cast<std::size_t>(kernel_order_[at])] < current_.occupancy.ctas_per_sm) {
      return at;
    }
  }
  return kernel_order_.size();
}

void CtaDispatcher::place(Cycle now) {
  (void)now;
  const std::uint64_t total = kernel_.cta_count();
  const int cluster = static_cast<int>(std::max<std::uint64_t>(1, kernel_.cluster.volume()));
  while (fetched_ < total) {
    if (dispatch_.max_ctas_per_cycle > 0 &&
        staged_count_ + static_cast<std::size_t>(cluster) >
            static_cast<std::size_t>(dispatch_.max_ctas_per_cycle)) {
      break;
    }
    int free_slots = 0;
    for (const int sm : kernel_order_) {
      free_slots +=
          std::max(0, current_.occupancy.ctas_per_sm - resident_[static_cast<std::size_t>(sm)]);
    }
    if (free_slots < cluster) break;
    for (int k = 0; k < cluster && fetched_ < total; ++k) {
      const std::size_t at = next_free_position();
      const int sm = kernel_order_[at];
      if (staged_count_ == staged_.size()) {
        staged_.emplace_back();
        staged_sm_.push_back(0);
      }
      traces::CtaTrace& cta = staged_[staged_count_];
      if (!source_->next_cta(cta)) {
        throw InputError(source_->describe() + ": kernel '" + kernel_.name + "' declares " +
                         std::to_string(total) + " CTAs but the trace ends after " +
                         std::to_string(fetched_));
      }
      staged_sm_[staged_count_++] = sm;
      ++resident_[static_cast<std::size_t>(sm)];
      ++fetched_;
      rr_ = (at + 1) % kernel_order_.size();
    }
  }
}

Cycle CtaDispatcher::tick(Cycle now) {
  for (std::size_t sm = 0; sm < ports_.size(); ++sm) {
    while (ports_[sm]->has_message()) {
      const CtaRetired retired = ports_[sm]->pop();
      --resident_[sm];
      ++retired_;
      current_.end = std::max(current_.end, retired.cycle);
      note_progress();
    }
  }
  if (!active_) {
    if (exhausted_) return kSleep;
    if (now < next_kernel_at_) return next_kernel_at_;
    if (!start_next_kernel(now)) return kSleep;
  }
  place(now);
  if (fetched_ == kernel_.cta_count() && retired_ == fetched_ && !start_pending_) {
    active_ = false;
    end_pending_ = true;
    current_.ctas = retired_;
    next_kernel_at_ = current_.end + dispatch_.kernel_launch_overhead_cycles;
    return std::max(next_kernel_at_, now + 1);
  }
  Cycle next = staged_count_ > 0 || start_pending_ ? now + 1 : kSleep;
  if (launching_count_ > 0) {  // commit at due - 1 starts the CTA at its due cycle
    next = std::min(next, std::max(now + 1, launching_[launching_head_].due - 1));
  }
  return next;
}

void CtaDispatcher::start_launched(Cycle cycle) {
  while (launching_count_ > 0 && launching_[launching_head_].due <= cycle) {
    Launching& l = launching_[launching_head_];
    Sm& sm = *sms_[static_cast<std::size_t>(l.sm)];
    sm.stage_cta(l.cta, cycle);
    engine_->wake(sm, cycle);
    note_progress();
    launching_head_ = (launching_head_ + 1) % launching_.size();
    --launching_count_;
  }
}

void CtaDispatcher::commit(Cycle now) {
  if (start_pending_) {
    for (Sm* sm : sms_) {
      sm->start_kernel(kernel_, current_.occupancy);
      current_.warps_active_sum -= sm->counters().warps_active_sum;
      current_.cycles_active_sum -= sm->counters().cycles_active;
    }
    start_pending_ = false;
  }
  if (dispatch_.cta_launch_cycles == 0) {
    for (std::size_t k = 0; k < staged_count_; ++k) {
      Sm& sm = *sms_[static_cast<std::size_t>(staged_sm_[k])];
      sm.stage_cta(staged_[k], now + 1);
      engine_->wake(sm, now + 1);
      note_progress();
    }
  } else {
    for (std::size_t k = 0; k < staged_count_; ++k) {
      if (launching_count_ == launching_.size()) {  // grow the ring, keeping FIFO order
        std::vector<Launching> grown(std::max<std::size_t>(16, 2 * launching_.size()));
        for (std::size_t i = 0; i < launching_count_; ++i) {
          grown[i] = std::move(launching_[(launching_head_ + i) % launching_.size()]);
        }
        launching_ = std::move(grown);
        launching_head_ = 0;
      }
      Launching& l = launching_[(launching_head_ + launching_count_) % launching_.size()];
      std::swap(l.cta, staged_[k]);
      l.sm = staged_sm_[k];
      l.due = now + 1 + dispatch_.cta_launch_cycles;
      ++launching_count_;
      note_progress();
    }
    start_launched(now + 1);
  }
  staged_count_ = 0;
  if (end_pending_) {
    for (Sm* sm : sms_) {
      current_.warps_active_sum += sm->counters().warps_active_sum;
      current_.cycles_active_sum += sm->counters().cycles_active;
    }
    records_.push_back(current_);
    end_pending_ = false;
  }
}

bool CtaDispatcher::busy() const { return active_; }

void CtaDispatcher::dump_state(std::ostream& out) const {
  out << "kernel=" << (active_ ? kernel_.name : std::string("-")) << " fetched=" << fetched_
      << " retired=" << retired_ << " ctas_per_sm=" << current_.occupancy.ctas_per_sm
      << " kernels_done=" << records_.size() << (exhausted_ ? " exhausted" : "");
}

}  // namespace warpsim::core
