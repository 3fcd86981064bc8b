#include "sim/stats/json_writer.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "arch/error.h"
#include "sim/stats/report.pb.h"
#include "tests/sim/stats/sample_report.h"

namespace warpsim::stats {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

Struct parse(const std::string& json) {
  Struct out;
  auto status = google::protobuf::util::JsonStringToMessage(json, &out);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << json;
  return out;
}

std::set<std::string> keys(const Struct& s) {
  std::set<std::string> out;
  for (const auto& [k, v] : s.fields()) out.insert(k);
  return out;
}

const Value& at(const Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  if (it == s.fields().end()) throw std::runtime_error("missing key " + key);
  return it->second;
}

TEST(StatsJsonWriter, FollowsTheDesignLayout) {
  Struct root = parse(to_json(testing::sample_report()));
  EXPECT_EQ(to_json(testing::sample_report()), to_json(testing::sample_report(), JsonOptions{}));
  EXPECT_EQ(keys(root),
            (std::set<std::string>{"warpsim_version", "arch", "kernels", "simulation"}));
  EXPECT_EQ(at(root, "warpsim_version").string_value(), "0.1.0");
  const Struct& arch = at(root, "arch").struct_value();
  EXPECT_EQ(keys(arch), (std::set<std::string>{"name", "config"}));
  EXPECT_EQ(at(arch, "name").string_value(), "H200");
  const Struct& config = at(arch, "config").struct_value();
  EXPECT_EQ(at(config, "sm_count").number_value(), 132);
  EXPECT_EQ(at(at(config, "l2").struct_value(), "size_bytes").string_value(), "52428800");

  ASSERT_EQ(at(root, "kernels").list_value().values_size(), 1);
  const Struct& kernel = at(root, "kernels").list_value().values(0).struct_value();
  EXPECT_EQ(keys(kernel), (std::set<std::string>{"name", "grid", "block", "metrics", "stats"}));
  EXPECT_EQ(at(kernel, "name").string_value(), "k(const float *, float *, int)");
  const auto& grid = at(kernel, "grid").list_value();
  ASSERT_EQ(grid.values_size(), 3);
  EXPECT_EQ(grid.values(0).number_value(), 4096);
  EXPECT_EQ(grid.values(1).number_value(), 1);
  EXPECT_EQ(grid.values(2).number_value(), 1);
  EXPECT_EQ(at(kernel, "block").list_value().values(0).number_value(), 256);

  const Struct& sim = at(root, "simulation").struct_value();
  EXPECT_EQ(keys(sim), (std::set<std::string>{"wall_seconds", "warp_instructions",
                                              "warp_instructions_per_second", "threads"}));
  EXPECT_EQ(at(sim, "wall_seconds").number_value(), 2.0);
  EXPECT_EQ(at(sim, "warp_instructions").number_value(), 851968);
  EXPECT_EQ(at(sim, "warp_instructions_per_second").number_value(), 425984);
  EXPECT_EQ(at(sim, "threads").number_value(), 4);
}

TEST(StatsJsonWriter, MetricsAreFlatNcuNamesWithExactValues) {
  Struct root = parse(to_json(testing::sample_report()));
  const Struct& kernel = at(root, "kernels").list_value().values(0).struct_value();
  const Struct& metrics = at(kernel, "metrics").struct_value();
  EXPECT_EQ(keys(metrics),
            (std::set<std::string>{"gpc__cycles_elapsed.max", "gpu__time_duration.sum",
                                   "l1tex__t_sector_hit_rate.pct", "launch__registers_per_thread",
                                   "lts__t_sector_hit_rate.pct",
                                   "smsp__thread_inst_executed_per_inst_executed.ratio"}));
  EXPECT_EQ(at(metrics, "gpc__cycles_elapsed.max").number_value(), 9864);
  EXPECT_EQ(at(metrics, "gpu__time_duration.sum").number_value(), 5025.5);
  EXPECT_EQ(at(metrics, "l1tex__t_sector_hit_rate.pct").number_value(), 100 * (8.0 / 12));
  EXPECT_EQ(at(metrics, "lts__t_sector_hit_rate.pct").kind_case(), Value::kNullValue);
}

TEST(StatsJsonWriter, StatsNestByDottedNameWithInstanceArrays) {
  JsonOptions with_units;
  with_units.include_units = true;
  std::string json = to_json(testing::sample_report(), with_units);
  Struct root = parse(json);
  const Struct& kernel = at(root, "kernels").list_value().values(0).struct_value();
  const Struct& gpu = at(at(kernel, "stats").struct_value(), "gpu").struct_value();
  EXPECT_EQ(keys(gpu), (std::set<std::string>{"sm", "l2"}));
  const auto& sms = at(gpu, "sm").list_value();
  ASSERT_EQ(sms.values_size(), 2);
  EXPECT_EQ(at(at(sms.values(0).struct_value(), "l1").struct_value(), "hits").number_value(), 3);
  EXPECT_EQ(at(at(sms.values(1).struct_value(), "l1").struct_value(), "misses").number_value(), 3);
  // 2^53 is printed as an exact integer.
  EXPECT_EQ(at(at(gpu, "l2").struct_value(), "hits").number_value(), 9007199254740992.0);
  EXPECT_NE(json.find("9007199254740992"), std::string::npos);
  const Struct& units = at(kernel, "units").struct_value();
  EXPECT_EQ(at(units, "gpu.sm[1].l1.hits").string_value(), "sector");
  EXPECT_EQ(at(units, "gpu__time_duration.sum").string_value(), "ns");
  EXPECT_EQ(at(units, "smsp__thread_inst_executed_per_inst_executed.ratio").string_value(), "");
}

TEST(StatsJsonWriter, MissingInstancesAreNull) {
  RunReport report;
  KernelReport kernel;
  kernel.snapshot.stats.push_back({"gpu.sm[2].cycles", std::uint64_t{7}, "cycle", "c"});
  report.kernels.push_back(kernel);
  Struct root = parse(to_json(report));
  const Struct& k = at(root, "kernels").list_value().values(0).struct_value();
  const auto& sms = at(at(at(k, "stats").struct_value(), "gpu").struct_value(), "sm").list_value();
  ASSERT_EQ(sms.values_size(), 3);
  EXPECT_EQ(sms.values(0).kind_case(), Value::kNullValue);
  EXPECT_EQ(sms.values(1).kind_case(), Value::kNullValue);
  EXPECT_EQ(at(sms.values(2).struct_value(), "cycles").number_value(), 7);
}

TEST(StatsJsonWriter, OutputIsDeterministicWithSortedKeys) {
  RunReport report = testing::sample_report();
  std::string a = to_json(report);
  std::string b = to_json(testing::sample_report());
  EXPECT_EQ(a, b);
  EXPECT_LT(a.find("\"gpc__cycles_elapsed.max\""), a.find("\"gpu__time_duration.sum\""));
  EXPECT_LT(a.find("\"gpu__time_duration.sum\""), a.find("\"launch__registers_per_thread\""));
  EXPECT_LT(a.find("\"warpsim_version\""), a.find("\"arch\""));
  EXPECT_LT(a.find("\"arch\""), a.find("\"kernels\""));
  EXPECT_LT(a.find("\"kernels\""), a.find("\"simulation\""));
}

TEST(StatsJsonWriter, SortedJsonPrintsAnyMessagesKeysInOrder) {
  // 64 keys inserted in reverse order: a map's own iteration order would scatter them.
  Struct root;
  for (int i = 63; i >= 0; --i) {
    const std::string key = "k" + std::to_string(100 + i);
    (*root.mutable_fields())[key].set_number_value(i);
    (*(*root.mutable_fields())["nested"].mutable_struct_value()->mutable_fields())[key]
        .set_bool_value(true);
  }
  google::protobuf::util::JsonPrintOptions print;
  print.add_whitespace = true;
  const std::string json = sorted_json(root, print);
  EXPECT_EQ(parse(json).fields_size(), 65);
  EXPECT_NE(json.back(), '\n');
  std::size_t outer = json.find("\"k100\"");
  std::size_t inner = json.find("\"k100\"", outer + 1);
  ASSERT_NE(inner, std::string::npos);
  for (int i = 101; i < 164; ++i) {
    const std::string key = "\"k" + std::to_string(i) + "\"";
    const std::size_t next_outer = json.find(key);
    const std::size_t next_inner = json.find(key, next_outer + 1);
    ASSERT_NE(next_inner, std::string::npos) << key;
    EXPECT_LT(outer, next_outer) << key;
    EXPECT_LT(inner, next_inner) << key;
    outer = next_outer;
    inner = next_inner;
  }
}

TEST(StatsJsonWriter, CompactOptionAndUnitsOnlyOnRequest) {
  JsonOptions options;
  options.pretty = false;
  std::string json = to_json(testing::sample_report(), options);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  Struct root = parse(json);
  const Struct& kernel = at(root, "kernels").list_value().values(0).struct_value();
  EXPECT_EQ(keys(kernel).count("units"), 0u);
  EXPECT_NE(to_json(testing::sample_report()).find('\n'), std::string::npos);
}

TEST(StatsJsonWriter, WriteJsonEndsWithNewline) {
  std::ostringstream out;
  RunReport report = testing::sample_report();
  write_json(report, out);
  EXPECT_EQ(out.str(), to_json(report) + "\n");
}

TEST(StatsJsonWriter, EmptyReportStillHasEveryKey) {
  Struct root = parse(to_json(RunReport{}));
  EXPECT_EQ(keys(root),
            (std::set<std::string>{"warpsim_version", "arch", "kernels", "simulation"}));
  EXPECT_EQ(at(root, "kernels").list_value().values_size(), 0);
  EXPECT_EQ(at(at(root, "simulation").struct_value(), "threads").number_value(), 1);
  EXPECT_EQ(at(at(root, "arch").struct_value(), "config").kind_case(), Value::kStructValue);
}

TEST(StatsJsonWriter, RejectsStatsThatCannotNest) {
  for (const auto& pair : {std::pair{"gpu.l2", "gpu.l2.hits"}, std::pair{"gpu.l2.hits", "gpu.l2"},
                           std::pair{"gpu.sm[0].x", "gpu.sm.x"}, std::pair{"gpu.a", "gpu.a"}}) {
    RunReport report;
    KernelReport kernel;
    kernel.snapshot.stats.push_back({pair.first, 1.0, "", "d"});
    kernel.snapshot.stats.push_back({pair.second, 2.0, "", "d"});
    report.kernels.push_back(kernel);
    EXPECT_THROW(to_json(report), InternalError) << pair.first << " / " << pair.second;
  }
  RunReport report;
  KernelReport kernel;
  kernel.snapshot.stats.push_back({"gpu.sm[99999999].x", 1.0, "", "d"});
  report.kernels.push_back(kernel);
  EXPECT_THROW(to_json(report), InternalError);
}

}  // namespace
}  // namespace warpsim::stats
