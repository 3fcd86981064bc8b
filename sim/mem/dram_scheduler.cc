#include "sim/mem/dram_scheduler.h"

#include <algorithm>

namespace warpsim::mem {
namespace {

class FrFcfs final : public DramScheduler {
 public:
  int pick(std::span<const DramCandidate> candidates, engine::Cycle now) const override {
    int column = kNone;
    int other = kNone;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const DramCandidate& c = candidates[i];
      if (c.earliest > now) continue;
      if (c.is_column()) {
        if (column == kNone || c.age < candidates[column].age) column = static_cast<int>(i);
      } else if (!c.closes_hit_row) {
        if (other == kNone || c.age < candidates[other].age) other = static_cast<int>(i);
      }
    }
    return column != kNone ? column : other;
  }
  // A PRE that closes a row other candidates hit waits for a column command to serve them, which
  // issues at a tick of its own (and changes the candidates); until then only the others count.
  engine::Cycle next_pick(std::span<const DramCandidate> candidates,
                          engine::Cycle now) const override {
    engine::Cycle next = engine::kSleep;
    for (const DramCandidate& c : candidates) {
      if (c.command == DramCommand::kPrecharge && c.closes_hit_row) continue;
      next = std::min(next, std::max(c.earliest, now + 1));
    }
    return next;
  }
};

class Fcfs final : public DramScheduler {
 public:
  int pick(std::span<const DramCandidate> candidates, engine::Cycle now) const override {
    const int oldest = pick_oldest(candidates);
    return oldest != kNone && candidates[static_cast<std::size_t>(oldest)].earliest <= now
               ? oldest
               : kNone;
  }
  // Only the oldest request's command can issue.
  engine::Cycle next_pick(std::span<const DramCandidate> candidates,
                          engine::Cycle now) const override {
    const int oldest = pick_oldest(candidates);
    return oldest == kNone ? engine::kSleep
                           : std::max(candidates[static_cast<std::size_t>(oldest)].earliest, now + 1);
  }

 private:
  static int pick_oldest(std::span<const DramCandidate> candidates) {
    int oldest = kNone;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (oldest == kNone || candidates[i].age < candidates[static_cast<std::size_t>(oldest)].age) {
        oldest = static_cast<int>(i);
      }
    }
    return oldest;
  }
};

}  // namespace

DramScheduler::~DramScheduler() = default;

engine::Cycle DramScheduler::next_pick(std::span<const DramCandidate> candidates,
                                       engine::Cycle now) const {
  engine::Cycle next = engine::kSleep;
  for (const DramCandidate& c : candidates) next = std::min(next, std::max(c.earliest, now + 1));
  return next;
}

PolicyRegistry<DramScheduler>& dram_scheduler_registry() {
  static PolicyRegistry<DramScheduler> registry = [] {
    PolicyRegistry<DramScheduler> r("DRAM scheduler");
    r.add("frfcfs", [] { return std::make_unique<FrFcfs>(); });
    r.add("fcfs", [] { return std::make_unique<Fcfs>(); });
    return r;
  }();
  return registry;
}

std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name, std::string_view field) {
  return dram_scheduler_registry().create(name, field);
}

}  // namespace warpsim::mem
