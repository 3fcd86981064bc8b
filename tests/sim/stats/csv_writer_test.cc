#include "sim/stats/csv_writer.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>

#include "tests/sim/stats/sample_report.h"

namespace warpsim::stats {
namespace {

TEST(StatsCsvWriter, QuotesFieldsAsRfc4180Says) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field("%"), "%");
}

TEST(StatsCsvWriter, WritesExactLongFormatRows) {
  std::ostringstream out;
  write_csv(testing::sample_report(), out);
  EXPECT_EQ(out.str(),
            "kernel,metric,value,unit\n"
            "\"k(const float *, float *, int)\",gpc__cycles_elapsed.max,9864,cycle\n"
            "\"k(const float *, float *, int)\",gpu__time_duration.sum,5025.5,ns\n"
            "\"k(const float *, float *, int)\",l1tex__t_sector_hit_rate.pct,66.66666666666666,%\n"
            "\"k(const float *, float *, int)\",launch__registers_per_thread,16,register/thread\n"
            "\"k(const float *, float *, int)\",lts__t_sector_hit_rate.pct,n/a,%\n"
            "\"k(const float *, float *, int)\","
            "smsp__thread_inst_executed_per_inst_executed.ratio,32,\n"
            "\"k(const float *, float *, int)\",gpu.l2.hits,9007199254740992,sector\n"
            "\"k(const float *, float *, int)\",gpu.sm[0].l1.hits,3,sector\n"
            "\"k(const float *, float *, int)\",gpu.sm[0].l1.misses,1,sector\n"
            "\"k(const float *, float *, int)\",gpu.sm[1].l1.hits,5,sector\n"
            "\"k(const float *, float *, int)\",gpu.sm[1].l1.misses,3,sector\n");
}

TEST(StatsCsvWriter, KeepsKernelOrderAndExactValues) {
  RunReport report;
  KernelReport first;
  first.name = "say \"hi\"";
  first.snapshot.stats.push_back(
      {"gpu.max", std::numeric_limits<std::uint64_t>::max(), "inst", "d"});
  first.snapshot.stats.push_back({"gpu.tenth", 0.1, "a,b", "d"});
  KernelReport second;
  second.name = "plain";
  second.snapshot.stats.push_back({"gpu.inf", std::numeric_limits<double>::infinity(), "", "d"});
  second.snapshot.stats.push_back({"gpu.third", 1.0 / 3, "", "d"});
  report.kernels = {first, second};
  std::ostringstream out;
  write_csv(report, out);
  EXPECT_EQ(out.str(),
            "kernel,metric,value,unit\n"
            "\"say \"\"hi\"\"\",gpu.max,18446744073709551615,inst\n"
            "\"say \"\"hi\"\"\",gpu.tenth,0.1,\"a,b\"\n"
            "plain,gpu.inf,n/a,\n"
            "plain,gpu.third,0.3333333333333333,\n");
}

TEST(StatsCsvWriter, EmptyReportIsJustTheHeader) {
  std::ostringstream out;
  write_csv(RunReport{}, out);
  EXPECT_EQ(out.str(), "kernel,metric,value,unit\n");
}

}  // namespace
}  // namespace warpsim::stats
