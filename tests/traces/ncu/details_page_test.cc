#include "traces/ncu/details_page.h"

#include <gtest/gtest.h>

#include "arch/error.h"
#include "tests/traces/ncu/fixtures.h"
#include "traces/ncu/report.h"

namespace warpsim::traces::ncu {
namespace {

using testing::fixtures;
using testing::read_file;

TEST(NcuDetailsPage, ReadsTheScaledFixtureInBaseUnits) {
  const std::string path = fixtures() + "h200-shared-stride/det.csv";
  const DetailsPage page = parse_details_page(read_file(path), path);
  ASSERT_EQ(page.kernels.size(), 1u);
  const DetailsKernel& k = page.kernels[0];
  EXPECT_EQ(k.name, "k(const float *, float *, int)");
  EXPECT_EQ(k.block, (Dim3{256, 1, 1}));
  EXPECT_EQ(k.grid, (Dim3{4096, 1, 1}));
  const DetailsMetric* cycles = k.find("Elapsed Cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->value, 9864.0);
  const DetailsMetric* clock = k.find("SM Frequency");
  ASSERT_NE(clock, nullptr);
  EXPECT_NEAR(*clock->value, 1.96e9, 1e7);  // Printed as 1.96 Ghz.
  const Report report = load_ncu_report(fixtures() + "h200-shared-stride/report.ncu-rep");
  const DetailsMetric* duration = k.find("Duration");
  ASSERT_NE(duration, nullptr);
  EXPECT_NEAR(*duration->value, *report.kernels[0].number("gpu__time_duration.sum"), 10.0);
}

TEST(NcuDetailsPage, ReadsTheBaseUnitFixtureWithBodyItemLabels) {
  const std::string path = fixtures() + "h200-shared-stride/det_all.csv";
  const DetailsPage page = parse_details_page(read_file(path), path);
  ASSERT_EQ(page.kernels.size(), 1u);
  const DetailsMetric* clock = page.kernels[0].find("SM Frequency");
  ASSERT_NE(clock, nullptr);
  EXPECT_NEAR(*clock->value, 1960215963.38, 0.01);
}

TEST(NcuDetailsPage, ReadsThe2020To2022Header) {
  const std::string text =
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel Time\","
      "\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"12\",\"a\",\"h\",\"k()\",\"2021-Mar-01 10:00:00\",\"1\",\"7\",\"GPU Speed Of "
      "Light\","
      "\"Elapsed Cycles\",\"cycle\",\"12,345\"\n"
      "\"0\",\"12\",\"a\",\"h\",\"k()\",\"2021-Mar-01 10:00:00\",\"1\",\"7\",\"GPU Speed Of "
      "Light\","
      "\"Duration\",\"usecond\",\"4.50\"\n"
      "\"1\",\"12\",\"a\",\"h\",\"j()\",\"2021-Mar-01 10:00:01\",\"1\",\"7\",\"GPU Speed Of "
      "Light\","
      "\"Elapsed Cycles\",\"cycle\",\"n/a\"\n";
  const DetailsPage page = parse_details_page(text, "old.csv");
  ASSERT_EQ(page.kernels.size(), 2u);
  EXPECT_FALSE(page.kernels[0].block.has_value());
  EXPECT_EQ(page.kernels[0].find("Elapsed Cycles")->value, 12345.0);
  EXPECT_DOUBLE_EQ(*page.kernels[0].find("Duration")->value, 4500.0);
  EXPECT_EQ(page.kernels[1].name, "j()");
  EXPECT_FALSE(page.kernels[1].find("Elapsed Cycles")->value.has_value());
}

TEST(NcuDetailsPage, Errors) {
  EXPECT_THROW(parse_details_page("", "d.csv"), InputError);
  try {
    parse_details_page("\"ID\",\"Kernel Name\",\"Metric Name\"\n", "d.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("d.csv:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Section Name"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_ncu_dim3("(256, 1, 1)"), (Dim3{256, 1, 1}));
  EXPECT_FALSE(parse_ncu_dim3("(256, 1)").has_value());
  EXPECT_FALSE(parse_ncu_dim3("256").has_value());
}

}  // namespace
}  // namespace warpsim::traces::ncu
