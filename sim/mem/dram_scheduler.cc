#include "sim/mem/dram_scheduler.h"

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
};

class Fcfs final : public DramScheduler {
 public:
  int pick(std::span<const DramCandidate> candidates, engine::Cycle now) const override {
    int oldest = kNone;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (oldest == kNone || candidates[i].age < candidates[oldest].age) {
        oldest = static_cast<int>(i);
      }
    }
    return oldest != kNone && candidates[oldest].earliest <= now ? oldest : kNone;
  }
};

}  // namespace

DramScheduler::~DramScheduler() = default;

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
