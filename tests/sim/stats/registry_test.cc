#include "sim/stats/registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "arch/error.h"

namespace warpsim::stats {
namespace {

struct L1Counters {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
};

// Expects `fn` to throw InternalError whose message contains `needle`.
template <typename Fn>
void expect_internal_error(Fn fn, const std::string& needle) {
  try {
    fn();
    ADD_FAILURE() << "expected InternalError mentioning '" << needle << "'";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

const Sample& get(const Snapshot& snapshot, const std::string& name) {
  const Sample* sample = snapshot.find(name);
  if (sample == nullptr) throw std::runtime_error("no sample " + name);
  return *sample;
}

std::uint64_t integer(const Snapshot& snapshot, const std::string& name) {
  return std::get<std::uint64_t>(get(snapshot, name).value);
}

double real(const Snapshot& snapshot, const std::string& name) {
  return std::get<double>(get(snapshot, name).value);
}

TEST(StatsRegistry, CountersAreReadThroughTheirPointers) {
  L1Counters l1;
  Registry registry;
  registry.add_counter("gpu.sm[0].l1.hits", &l1.hits, "sector", "hits");
  registry.add_counter("gpu.sm[0].l1.misses", &l1.misses, "sector", "misses");
  l1.hits = 7;
  l1.misses = 3;
  Snapshot first = registry.snapshot();
  EXPECT_EQ(integer(first, "gpu.sm[0].l1.hits"), 7u);
  EXPECT_EQ(integer(first, "gpu.sm[0].l1.misses"), 3u);
  EXPECT_EQ(get(first, "gpu.sm[0].l1.hits").unit, "sector");
  EXPECT_EQ(get(first, "gpu.sm[0].l1.hits").description, "hits");
  EXPECT_TRUE(first.metrics.empty());
  l1.hits += 5;
  EXPECT_EQ(integer(registry.snapshot(), "gpu.sm[0].l1.hits"), 12u);
  EXPECT_EQ(integer(first, "gpu.sm[0].l1.hits"), 7u);  // a snapshot keeps its values
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_TRUE(registry.contains("gpu.sm[0].l1.hits"));
  EXPECT_FALSE(registry.contains("gpu.sm[0].l1"));
}

TEST(StatsRegistry, CountsStayExactBeyondDoublePrecision) {
  std::uint64_t big = (std::uint64_t{1} << 53) + 1;
  std::uint64_t max = UINT64_MAX;
  Registry registry;
  registry.add_counter("a.big", &big, "inst", "big");
  registry.add_counter("a.max", &max, "inst", "max");
  Snapshot s = registry.snapshot();
  EXPECT_EQ(integer(s, "a.big"), 9007199254740993u);
  EXPECT_EQ(integer(s, "a.max"), UINT64_MAX);
}

TEST(StatsRegistry, RejectsDuplicateNames) {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  Registry registry;
  registry.add_counter("gpu.cycles", &a, "cycle", "cycles");
  expect_internal_error([&] { registry.add_counter("gpu.cycles", &b, "cycle", "again"); },
                        "gpu.cycles");
  expect_internal_error(
      [&] { registry.add_formula("gpu.cycles", "cycle", "f", [](const auto&) { return 1.0; }); },
      "registered twice");
  std::uint64_t c = 0;
  registry.add_counter("gpc__cycles_elapsed.max", &c, "cycle", "");
  expect_internal_error([&] { registry.add_counter("gpc__cycles_elapsed.max", &c, "cycle", ""); },
                        "registered twice");
  EXPECT_EQ(registry.size(), 2u);
}

TEST(StatsRegistry, NcuNamesMustCarryTheCatalogueUnit) {
  std::uint64_t cycles = 0;
  std::uint64_t bytes = 0;
  Registry registry;
  expect_internal_error(
      [&] { registry.add_counter("gpc__cycles_elapsed.max", &cycles, "ns", "elapsed"); },
      "ncu's unit is 'cycle'");
  expect_internal_error(
      [&] { registry.add_counter("dram__bytes_read.sum", &bytes, "sector", "read"); },
      "dram__bytes_read.sum");
  expect_internal_error(
      [&] { registry.add_counter("smsp__made_up_metric.sum", &bytes, "inst", "x"); },
      "not in the ncu catalogue");
  EXPECT_EQ(registry.size(), 0u);
  registry.add_counter("gpc__cycles_elapsed.max", &cycles, "cycle", "");
  registry.add_formula("gpu__time_duration.sum", "nsecond", "", [](const auto&) { return 5.0; });
  cycles = 9864;
  Snapshot s = registry.snapshot();
  ASSERT_EQ(s.metrics.size(), 2u);
  EXPECT_TRUE(s.stats.empty());
  EXPECT_EQ(integer(s, "gpc__cycles_elapsed.max"), 9864u);
  // An empty description takes the catalogue's meaning; an old unit spelling is canonicalised.
  EXPECT_FALSE(get(s, "gpc__cycles_elapsed.max").description.empty());
  EXPECT_EQ(get(s, "gpu__time_duration.sum").unit, "ns");
}

TEST(StatsRegistry, RejectsBadRegistrations) {
  std::uint64_t c = 0;
  Registry registry;
  expect_internal_error([&] { registry.add_counter("gpu.x", nullptr, "cycle", "d"); }, "null");
  expect_internal_error([&] { registry.add_gauge("gpu.y", nullptr, "cycle", "d"); }, "null");
  expect_internal_error([&] { registry.add_formula("gpu.z", "", "d", Formula{}); }, "empty");
  expect_internal_error([&] { registry.add_aggregate("gpu.w", "inst", "d", Aggregate::kSum, ""); },
                        "pattern");
  expect_internal_error([&] { registry.add_counter("gpu.v", &c, "cycle", ""); }, "description");
  registry.add_counter("gpu.v.w", &c, "cycle", "d");  // the rejected "gpu.v" claimed nothing
  expect_internal_error([&] { registry.add_counter("gpu..v", &c, "cycle", "d"); }, "gpu..v");
  expect_internal_error([&] { registry.add_counter("gpu.sm[01].v", &c, "cycle", "d"); },
                        "leading zero");
  EXPECT_EQ(registry.size(), 1u);
}

TEST(StatsRegistry, RejectsNamesThatAreBothValueAndGroup) {
  std::uint64_t c = 0;
  Registry registry;
  registry.add_counter("gpu.l2", &c, "sector", "d");
  expect_internal_error([&] { registry.add_counter("gpu.l2.hits", &c, "sector", "d"); },
                        "conflicts with 'gpu.l2'");
  registry.add_counter("gpu.sm[0].cycles", &c, "cycle", "d");
  expect_internal_error([&] { registry.add_counter("gpu.sm.cycles", &c, "cycle", "d"); },
                        "'gpu.sm'");
  expect_internal_error([&] { registry.add_counter("gpu.sm[0]", &c, "cycle", "d"); },
                        "'gpu.sm[0]'");
  registry.add_counter("gpu.hbm.bytes[3]", &c, "byte", "per-channel bytes");
  registry.add_counter("gpu.hbm.bytes[0]", &c, "byte", "per-channel bytes");
  expect_internal_error([&] { registry.add_counter("gpu.hbm.bytes", &c, "byte", "d"); },
                        "gpu.hbm.bytes");
  EXPECT_EQ(registry.size(), 4u);
}

// 2 SMs x 4 SMSPs with inst_executed = 10 * sm + smsp + 1.
class StatsRegistryAggregates : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int sm = 0; sm < 2; ++sm) {
      for (int smsp = 0; smsp < 4; ++smsp) {
        inst_[sm][smsp] = static_cast<std::uint64_t>(10 * sm + smsp + 1);
        registry_.scope("gpu.sm[" + std::to_string(sm) + "]")
            .child("smsp[" + std::to_string(smsp) + "]")
            .add_counter("inst_executed", &inst_[sm][smsp], "inst", "warp instructions");
      }
    }
  }
  std::uint64_t inst_[2][4] = {};
  Registry registry_;
};

TEST_F(StatsRegistryAggregates, SumAvgMaxMinOverInstances) {
  const char* all = "gpu.sm[*].smsp[*].inst_executed";
  registry_.add_aggregate("gpu.inst_total", "inst", "sum", Aggregate::kSum, all);
  registry_.add_aggregate("gpu.inst_avg", "inst", "avg", Aggregate::kAvg, all);
  registry_.add_aggregate("gpu.inst_max", "inst", "max", Aggregate::kMax, all);
  registry_.add_aggregate("gpu.inst_min", "inst", "min", Aggregate::kMin, all);
  registry_.add_aggregate("gpu.sm1_total", "inst", "sum", Aggregate::kSum,
                          "gpu.sm[1].smsp[*].inst_executed");
  Snapshot s = registry_.snapshot();
  // 1+2+3+4 + 11+12+13+14 = 60
  EXPECT_EQ(integer(s, "gpu.inst_total"), 60u);
  EXPECT_EQ(real(s, "gpu.inst_avg"), 7.5);
  EXPECT_EQ(integer(s, "gpu.inst_max"), 14u);
  EXPECT_EQ(integer(s, "gpu.inst_min"), 1u);
  EXPECT_EQ(integer(s, "gpu.sm1_total"), 50u);
  inst_[0][0] = 1000;
  Snapshot t = registry_.snapshot();
  EXPECT_EQ(integer(t, "gpu.inst_total"), 1059u);
  EXPECT_EQ(integer(t, "gpu.inst_max"), 1000u);
  EXPECT_EQ(integer(t, "gpu.inst_min"), 2u);
}

TEST_F(StatsRegistryAggregates, NcuRollupsTakeCatalogueNamesAndUnits) {
  registry_.add_rollups("smsp__inst_executed", "gpu.sm[*].smsp[*].inst_executed",
                        {Aggregate::kSum, Aggregate::kAvg, Aggregate::kMax});
  Snapshot s = registry_.snapshot();
  ASSERT_EQ(s.metrics.size(), 3u);
  EXPECT_EQ(s.metrics[0].name, "smsp__inst_executed.avg");  // metrics sorted by name
  EXPECT_EQ(real(s, "smsp__inst_executed.avg"), 7.5);
  EXPECT_EQ(integer(s, "smsp__inst_executed.max"), 14u);
  EXPECT_EQ(integer(s, "smsp__inst_executed.sum"), 60u);
  EXPECT_EQ(get(s, "smsp__inst_executed.sum").unit, "inst");
  expect_internal_error(
      [&] { registry_.add_rollups("launch__grid_size", "gpu.x", {Aggregate::kSum}); },
      "launch__grid_size.sum");
  // smsp__inst_issued.min is not catalogued: nothing of the call is registered.
  const std::size_t before = registry_.size();
  expect_internal_error(
      [&] {
        registry_.add_rollups("smsp__inst_issued", "gpu.x", {Aggregate::kSum, Aggregate::kMin});
      },
      "smsp__inst_issued.min");
  EXPECT_EQ(registry_.size(), before);
  EXPECT_FALSE(registry_.contains("smsp__inst_issued.sum"));
}

TEST_F(StatsRegistryAggregates, AggregateRejectsMixedUnitsAtSnapshot) {
  std::uint64_t cycles = 4;
  registry_.add_counter("gpu.sm[0].smsp[0].cycles", &cycles, "cycle", "cycles");
  registry_.add_aggregate("gpu.everything", "inst", "sum", Aggregate::kSum, "gpu.sm[*].smsp[*].*");
  expect_internal_error([&] { registry_.snapshot(); }, "gpu.sm[0].smsp[0].cycles");
}

TEST_F(StatsRegistryAggregates, EmptyMatchSumsToZeroOtherwiseUndefined) {
  registry_.add_aggregate("gpu.none_sum", "inst", "d", Aggregate::kSum, "gpu.tpc[*].inst");
  registry_.add_aggregate("gpu.none_avg", "inst", "d", Aggregate::kAvg, "gpu.tpc[*].inst");
  registry_.add_aggregate("gpu.none_max", "inst", "d", Aggregate::kMax, "gpu.tpc[*].inst");
  Snapshot s = registry_.snapshot();
  EXPECT_EQ(integer(s, "gpu.none_sum"), 0u);
  EXPECT_TRUE(std::isnan(real(s, "gpu.none_avg")));
  EXPECT_TRUE(is_undefined(get(s, "gpu.none_max").value));
}

TEST_F(StatsRegistryAggregates, FormulasSeeCountersAsTheyAreAtSnapshotTime) {
  L1Counters l1;
  registry_.add_counter("gpu.sm[0].l1.hits", &l1.hits, "sector", "hits");
  registry_.add_counter("gpu.sm[0].l1.misses", &l1.misses, "sector", "misses");
  registry_.add_formula("gpu.sm[0].l1.hit_rate", "%", "hit rate", [](const FormulaContext& f) {
    const double hits = f.value("gpu.sm[0].l1.hits");
    return 100 * f.ratio(hits, hits + f.value("gpu.sm[0].l1.misses"));
  });
  // A formula over a formula and an aggregate, defined before the counters change.
  registry_.add_formula("gpu.hit_rate_x_inst", "", "product", [](const FormulaContext& f) {
    return f.value("gpu.sm[0].l1.hit_rate") * f.sum("gpu.sm[*].smsp[*].inst_executed");
  });
  registry_.add_formula("gpu.smsp_count", "", "count", [](const FormulaContext& f) {
    return static_cast<double>(f.count("gpu.sm[*].smsp[*].inst_executed"));
  });
  registry_.add_formula("gpu.inst_avg_f", "inst", "avg", [](const FormulaContext& f) {
    return f.avg("gpu.sm[*].smsp[*].inst_executed") + f.max("gpu.sm[0].smsp[*].inst_executed") +
           f.min("gpu.sm[1].smsp[*].inst_executed");
  });
  Snapshot empty = registry_.snapshot();
  EXPECT_EQ(real(empty, "gpu.sm[0].l1.hit_rate"), 0.0);  // 0/0 reads as 0, like ncu
  l1.hits = 3;
  l1.misses = 1;
  Snapshot s = registry_.snapshot();
  EXPECT_EQ(real(s, "gpu.sm[0].l1.hit_rate"), 75.0);
  EXPECT_EQ(real(s, "gpu.hit_rate_x_inst"), 75.0 * 60);
  EXPECT_EQ(real(s, "gpu.smsp_count"), 8.0);
  EXPECT_EQ(real(s, "gpu.inst_avg_f"), 7.5 + 4 + 11);
  l1.misses = 3;
  EXPECT_EQ(real(registry_.snapshot(), "gpu.sm[0].l1.hit_rate"), 50.0);
}

TEST(StatsRegistry, FormulaErrorsSurfaceAtSnapshot) {
  Registry registry;
  registry.add_formula("gpu.a", "", "a", [](const FormulaContext& f) { return f.value("gpu.b"); });
  expect_internal_error([&] { registry.snapshot(); }, "unknown stat 'gpu.b'");
  registry.add_formula("gpu.b", "", "b", [](const FormulaContext& f) { return f.value("gpu.a"); });
  expect_internal_error([&] { registry.snapshot(); }, "depends on itself");
}

TEST(StatsRegistry, GaugesAreReadAndNotReset) {
  double clock_ghz = 1.98;
  std::uint64_t cycles = 100;
  Registry registry;
  registry.add_gauge("gpu.clock", &clock_ghz, "GHz", "SM clock");
  registry.add_counter("gpu.cycles", &cycles, "cycle", "cycles");
  EXPECT_EQ(real(registry.snapshot(), "gpu.clock"), 1.98);
  registry.reset_counters();
  EXPECT_EQ(cycles, 0u);
  EXPECT_EQ(clock_ghz, 1.98);
  Snapshot s = registry.snapshot();
  EXPECT_EQ(integer(s, "gpu.cycles"), 0u);
  EXPECT_EQ(real(s, "gpu.clock"), 1.98);
}

TEST_F(StatsRegistryAggregates, DisabledStatsAreLeftOutButStillAggregated) {
  std::uint64_t later = 5;
  registry_.disable("gpu.sm[*].**");
  registry_.add_counter("gpu.sm[1].late", &later, "inst", "registered after disable()");
  registry_.add_rollups("smsp__inst_executed", "gpu.sm[*].smsp[*].inst_executed",
                        {Aggregate::kSum});
  Snapshot s = registry_.snapshot();
  EXPECT_TRUE(s.stats.empty());
  EXPECT_EQ(s.find("gpu.sm[1].late"), nullptr);
  EXPECT_EQ(integer(s, "smsp__inst_executed.sum"), 60u);
}

TEST(StatsRegistry, SnapshotOrdersStatsNaturally) {
  std::uint64_t c[12] = {};
  Registry registry;
  for (int sm : {10, 2, 1}) {
    registry.add_counter("gpu.sm[" + std::to_string(sm) + "].cycles", &c[sm], "cycle", "c");
  }
  registry.add_counter("gpu.l2.hits", &c[0], "sector", "h");
  Snapshot s = registry.snapshot();
  std::vector<std::string> names;
  for (const Sample& sample : s.stats) names.push_back(sample.name);
  EXPECT_EQ(names, (std::vector<std::string>{"gpu.l2.hits", "gpu.sm[1].cycles", "gpu.sm[2].cycles",
                                             "gpu.sm[10].cycles"}));
}

TEST(StatsRegistry, ScopesPrefixNames) {
  Registry registry;
  StatScope root = registry.scope("");
  EXPECT_EQ(root.path("gpu"), "gpu");
  StatScope l1 = registry.scope("gpu").child("sm[3]").child("l1");
  EXPECT_EQ(l1.path("hits"), "gpu.sm[3].l1.hits");
  std::uint64_t hits = 4;
  double size = 256;
  l1.add_counter("hits", &hits, "sector", "hits");
  l1.add_gauge("size_kib", &size, "KiB", "capacity");
  l1.add_formula("twice", "sector", "2x",
                 [](const FormulaContext& f) { return 2 * f.value("gpu.sm[3].l1.hits"); });
  Snapshot s = registry.snapshot();
  EXPECT_EQ(integer(s, "gpu.sm[3].l1.hits"), 4u);
  EXPECT_EQ(real(s, "gpu.sm[3].l1.size_kib"), 256.0);
  EXPECT_EQ(real(s, "gpu.sm[3].l1.twice"), 8.0);
}

TEST(StatsRegistry, AggregateSuffixesFollowNcu) {
  EXPECT_EQ(aggregate_suffix(Aggregate::kSum), "sum");
  EXPECT_EQ(aggregate_suffix(Aggregate::kAvg), "avg");
  EXPECT_EQ(aggregate_suffix(Aggregate::kMax), "max");
  EXPECT_EQ(aggregate_suffix(Aggregate::kMin), "min");
}

}  // namespace
}  // namespace warpsim::stats
