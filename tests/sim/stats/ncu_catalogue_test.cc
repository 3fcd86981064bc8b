#include "sim/stats/ncu_catalogue.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "sim/stats/stat_name.h"

namespace warpsim::stats {
namespace {

std::string unit_of(const std::string& name) {
  const NcuMetric* metric = find_ncu_metric(name);
  return metric == nullptr ? "<missing>" : metric->unit;
}

TEST(StatsNcuCatalogue, HasTheCoreSetWithNcuUnits) {
  const std::pair<const char*, const char*> expected[] = {
      {"gpc__cycles_elapsed.max", "cycle"},
      {"sm__cycles_active.avg", "cycle"},
      {"gpu__time_duration.sum", "ns"},
      {"smsp__inst_executed.sum", "inst"},
      {"sm__inst_executed.avg.per_cycle_active", "inst/cycle"},
      {"smsp__thread_inst_executed_per_inst_executed.ratio", ""},
      {"l1tex__t_sector_hit_rate.pct", "%"},
      {"lts__t_sector_hit_rate.pct", "%"},
      {"dram__bytes_read.sum", "byte"},
      {"dram__bytes_write.sum", "byte"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", ""},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", ""},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", "%"},
      {"launch__registers_per_thread", "register/thread"},
      {"launch__occupancy_limit_blocks", "block"},
      {"launch__occupancy_limit_registers", "block"},
      {"launch__occupancy_limit_shared_mem", "block"},
      {"launch__occupancy_limit_warps", "block"},
      {"lts__t_sectors.sum", "sector"},
      {"lts__t_sectors_lookup_hit.sum", "sector"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "sector"},
      {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "%"},
      {"sm__maximum_warps_per_active_cycle_pct", "%"},
      {"gpc__cycles_elapsed.avg.per_second", "hz"},
  };
  for (const auto& [name, unit] : expected) EXPECT_EQ(unit_of(name), unit) << name;
}

TEST(StatsNcuCatalogue, HasEveryStallReasonOfNcu) {
  const std::set<std::string> reasons = {"barrier",
                                         "branch_resolving",
                                         "dispatch_stall",
                                         "drain",
                                         "gmma",
                                         "imc_miss",
                                         "lg_throttle",
                                         "long_scoreboard",
                                         "math_pipe_throttle",
                                         "membar",
                                         "mio_throttle",
                                         "misc",
                                         "no_instruction",
                                         "not_selected",
                                         "selected",
                                         "short_scoreboard",
                                         "sleeping",
                                         "tex_throttle",
                                         "wait"};
  EXPECT_EQ(std::set<std::string>(stall_reasons().begin(), stall_reasons().end()), reasons);
  for (const std::string& r : reasons) {
    const NcuMetric* latency = find_ncu_metric("smsp__average_warp_latency_issue_stalled_" + r);
    ASSERT_NE(latency, nullptr) << r;
    EXPECT_EQ(latency->unit, "cycle");
    EXPECT_EQ(latency->section, Section::kWarpState);
    EXPECT_EQ(unit_of("smsp__average_warps_issue_stalled_" + r + "_per_issue_active.ratio"),
              "inst");
  }
  EXPECT_EQ(find_ncu_metric("smsp__average_warp_latency_issue_stalled_long_scoreboard")->label,
            "Stall Long Scoreboard");
}

TEST(StatsNcuCatalogue, EntriesAreUniqueDescribedAndGroupedInSectionOrder) {
  std::set<std::string> names;
  Section previous = Section::kSpeedOfLight;
  for (const NcuMetric& metric : ncu_catalogue()) {
    EXPECT_TRUE(names.insert(metric.name).second) << "duplicate " << metric.name;
    EXPECT_TRUE(is_ncu_name(metric.name)) << metric.name;
    EXPECT_FALSE(metric.label.empty()) << metric.name;
    EXPECT_FALSE(metric.meaning.empty()) << metric.name;
    EXPECT_GE(metric.section, previous) << metric.name;
    previous = metric.section;
    EXPECT_EQ(find_ncu_metric(metric.name), &metric);
  }
  EXPECT_GT(names.size(), 100u);
}

TEST(StatsNcuCatalogue, UnknownNamesAreNotFound) {
  EXPECT_EQ(find_ncu_metric("smsp__no_such_metric.sum"), nullptr);
  EXPECT_EQ(find_ncu_metric("gpc__cycles_elapsed"), nullptr);
  EXPECT_EQ(find_ncu_metric(""), nullptr);
}

TEST(StatsNcuCatalogue, SectionsHaveNcuTitlesInNcuOrder) {
  ASSERT_EQ(all_sections().size(), 10u);
  EXPECT_EQ(all_sections().front(), Section::kSpeedOfLight);
  EXPECT_EQ(section_title(Section::kSpeedOfLight), "GPU Speed Of Light Throughput");
  EXPECT_EQ(section_title(Section::kMemoryWorkload), "Memory Workload Analysis");
  EXPECT_EQ(section_title(Section::kOccupancy), "Occupancy");
  EXPECT_EQ(section_title(Section::kWarpState), "Warp State Statistics");
  EXPECT_EQ(section_title(Section::kLaunch), "Launch Statistics");
  EXPECT_EQ(section_title(Section::kInstruction), "Instruction Statistics");
  std::set<std::string_view> titles;
  for (Section s : all_sections()) titles.insert(section_title(s));
  EXPECT_EQ(titles.size(), 10u);
}

TEST(StatsNcuCatalogue, CanonicalUnitsMapOlderSpellings) {
  EXPECT_EQ(canonical_unit("nsecond"), "ns");
  EXPECT_EQ(canonical_unit("usecond"), "us");
  EXPECT_EQ(canonical_unit("msecond"), "ms");
  EXPECT_EQ(canonical_unit("second"), "s");
  EXPECT_EQ(canonical_unit("cycle"), "cycle");
  EXPECT_EQ(canonical_unit(""), "");
}

}  // namespace
}  // namespace warpsim::stats
