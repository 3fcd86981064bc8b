#include "sim/stats/report.h"

#include <google/protobuf/struct.pb.h>
#include <gtest/gtest.h>

#include <string>

#include "arch/error.h"
#include "sim/stats/report.pb.h"

namespace warpsim::stats {
namespace {

TEST(StatsReport, ArchConfigFromAnyMessageKeepsFieldNamesAndDefaults) {
  SimulationJson config;  // any generated message will do
  config.set_wall_seconds(1.5);
  RunReport report;
  report.set_arch_config(config);
  const auto& fields = report.arch_config.fields();
  ASSERT_EQ(fields.count("wall_seconds"), 1u);
  EXPECT_EQ(fields.at("wall_seconds").number_value(), 1.5);
  ASSERT_EQ(fields.count("threads"), 1u);  // default values are part of the resolved config
  EXPECT_EQ(fields.at("threads").number_value(), 0);
  EXPECT_EQ(fields.count("warpInstructions"), 0u);
  EXPECT_EQ(fields.count("warp_instructions"), 1u);
}

TEST(StatsReport, ArchConfigFromJson) {
  RunReport report;
  report.set_arch_config_json(R"({"name": "H200", "sm": {"count": 132}})", "h200.json");
  EXPECT_EQ(report.arch_config.fields().at("name").string_value(), "H200");
  EXPECT_EQ(report.arch_config.fields().at("sm").struct_value().fields().at("count").number_value(),
            132);
}

TEST(StatsReport, BadArchConfigJsonNamesTheSource) {
  RunReport report;
  for (const char* bad : {"{", "[1, 2]", "42", "{\"a\": }", ""}) {
    try {
      report.set_arch_config_json(bad, "preset.json");
      ADD_FAILURE() << "expected InputError for " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("preset.json"), std::string::npos) << e.what();
    }
  }
}

TEST(StatsReport, SimulationRate) {
  SimulationInfo sim;
  EXPECT_EQ(sim.warp_instructions_per_second(), 0.0);
  sim.warp_instructions = 1000;
  EXPECT_EQ(sim.warp_instructions_per_second(), 0.0);  // no time measured
  sim.wall_seconds = 0.5;
  EXPECT_EQ(sim.warp_instructions_per_second(), 2000.0);
}

}  // namespace
}  // namespace warpsim::stats
