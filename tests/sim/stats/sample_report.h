// A small but complete RunReport built through a Registry, shared by the writer tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/stats/registry.h"
#include "sim/stats/report.h"

namespace warpsim::stats::testing {

struct SampleCounters {
  std::uint64_t hits[2] = {3, 5};
  std::uint64_t misses[2] = {1, 3};
  std::uint64_t l2_hits = std::uint64_t{1} << 53;
  std::uint64_t elapsed = 9864;
  std::uint64_t registers = 16;
};

inline void register_sample(Registry& registry, SampleCounters& c) {
  for (int sm = 0; sm < 2; ++sm) {
    StatScope l1 = registry.scope("gpu").child("sm[" + std::to_string(sm) + "]").child("l1");
    l1.add_counter("hits", &c.hits[sm], "sector", "L1 sector hits");
    l1.add_counter("misses", &c.misses[sm], "sector", "L1 sector misses");
  }
  registry.add_counter("gpu.l2.hits", &c.l2_hits, "sector", "L2 sector hits");
  registry.add_counter("gpc__cycles_elapsed.max", &c.elapsed, "cycle", "");
  registry.add_counter("launch__registers_per_thread", &c.registers, "register/thread", "");
  registry.add_formula("l1tex__t_sector_hit_rate.pct", "%", "", [](const FormulaContext& f) {
    const double hits = f.sum("gpu.sm[*].l1.hits");
    return 100 * f.ratio(hits, hits + f.sum("gpu.sm[*].l1.misses"));
  });
  registry.add_formula("gpu__time_duration.sum", "ns", "", [](const auto&) { return 5025.5; });
  registry.add_formula("lts__t_sector_hit_rate.pct", "%", "",
                       [](const auto&) { return std::numeric_limits<double>::quiet_NaN(); });
  registry.add_formula("smsp__thread_inst_executed_per_inst_executed.ratio", "", "",
                       [](const auto&) { return 32.0; });
}

/// One kernel "k(const float *, float *, int)", grid (4096,1,1), block (256,1,1).
inline RunReport sample_report() {
  SampleCounters counters;
  Registry registry;
  register_sample(registry, counters);
  RunReport report;
  report.warpsim_version = "0.1.0";
  report.arch_name = "H200";
  report.set_arch_config_json(R"({"sm_count": 132, "l2": {"size_bytes": "52428800"}})", "test");
  report.kernels.push_back(
      {"k(const float *, float *, int)", {4096, 1, 1}, {256, 1, 1}, registry.snapshot()});
  report.simulation.wall_seconds = 2.0;
  report.simulation.warp_instructions = 851968;
  report.simulation.threads = 4;
  return report;
}

}  // namespace warpsim::stats::testing
