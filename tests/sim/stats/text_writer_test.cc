#include "sim/stats/text_writer.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>

#include "tests/sim/stats/sample_report.h"

namespace warpsim::stats {
namespace {

std::string text_of(const RunReport& report) {
  std::ostringstream out;
  write_text(report, out);
  return out.str();
}

TEST(StatsTextWriter, FormatsValuesForReading) {
  EXPECT_EQ(format_for_reading(std::uint64_t{9864}), "9,864");
  EXPECT_EQ(format_for_reading(std::uint64_t{1048576}), "1,048,576");
  EXPECT_EQ(format_for_reading(std::uint64_t{999}), "999");
  EXPECT_EQ(format_for_reading(std::uint64_t{0}), "0");
  EXPECT_EQ(format_for_reading(6141.517), "6,141.52");
  EXPECT_EQ(format_for_reading(-1234.5), "-1,234.50");
  EXPECT_EQ(format_for_reading(0.0), "0.00");
  EXPECT_EQ(format_for_reading(0.00123), "0.00123");
  EXPECT_EQ(format_for_reading(2.5e20), "2.5e+20");
  EXPECT_EQ(format_for_reading(std::numeric_limits<double>::quiet_NaN()), "n/a");
}

TEST(StatsTextWriter, ListsMetricsUnderNcuSectionsWithUnits) {
  const std::string text = text_of(testing::sample_report());
  EXPECT_EQ(text.rfind("warpsim 0.1.0, arch H200\n", 0), 0u) << text;
  EXPECT_NE(text.find("  k(const float *, float *, int) (4096, 1, 1)x(256, 1, 1)\n"),
            std::string::npos);
  const std::size_t sol = text.find("    Section: GPU Speed Of Light Throughput\n");
  const std::size_t memory = text.find("    Section: Memory Workload Analysis\n");
  const std::size_t warp = text.find("    Section: Warp State Statistics\n");
  const std::size_t launch = text.find("    Section: Launch Statistics\n");
  const std::size_t other = text.find("    Section: Other Statistics\n");
  const std::size_t simulation = text.find("    Section: Simulation\n");
  ASSERT_NE(sol, std::string::npos) << text;
  EXPECT_LT(sol, memory);
  EXPECT_LT(memory, warp);
  EXPECT_LT(warp, launch);
  EXPECT_LT(launch, other);
  EXPECT_LT(other, simulation);
  // No metric of these sections is present, so they are left out.
  EXPECT_EQ(text.find("Section: Occupancy"), std::string::npos);
  EXPECT_EQ(text.find("Section: Instruction Statistics"), std::string::npos);
  // Rows: label, unit, value right-aligned; the column widths come from the longest entries.
  EXPECT_NE(text.find("    Elapsed Cycles cycle              9,864\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    Duration       ns              5,025.50\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    L1/TEX Hit Rate %                  66.67\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    L2 Hit Rate     %                    n/a\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    Registers Per Thread register/thread           16\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    gpu.l2.hits         sector      9,007,199,254,740,992\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    gpu.sm[1].l1.misses sector                          3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    Warp Instructions inst             851,968\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    Threads                                  4\n"), std::string::npos)
      << text;
}

TEST(StatsTextWriter, SectionTableHasNcuHeader) {
  const std::string text = text_of(testing::sample_report());
  EXPECT_NE(text.find("    Section: GPU Speed Of Light Throughput\n"
                      "    -------------- ----------- ------------\n"
                      "    Metric Name    Metric Unit Metric Value\n"
                      "    -------------- ----------- ------------\n"
                      "    Elapsed Cycles cycle              9,864\n"
                      "    Duration       ns              5,025.50\n"
                      "    -------------- ----------- ------------\n"),
            std::string::npos)
      << text;
}

TEST(StatsTextWriter, UncataloguedMetricsGoToOtherStatistics) {
  RunReport report;
  KernelReport kernel;
  kernel.name = "k";
  kernel.snapshot.metrics.push_back({"sm__not_catalogued.sum", std::uint64_t{5}, "inst", "d"});
  report.kernels.push_back(kernel);
  const std::string text = text_of(report);
  const std::size_t other = text.find("Section: Other Statistics");
  ASSERT_NE(other, std::string::npos) << text;
  EXPECT_GT(text.find("sm__not_catalogued.sum"), other);
}

}  // namespace
}  // namespace warpsim::stats
