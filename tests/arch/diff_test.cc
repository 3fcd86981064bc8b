#include "arch/diff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/loader.h"

namespace warpsim::arch {

// Readable failure output.
void PrintTo(const FieldDifference& row, std::ostream* os) {
  *os << "{" << row.path << ": " << row.a << " | " << row.b << "}";
}

namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::Not;

MATCHER_P3(Row, path, a, b, "") { return arg.path == path && arg.a == a && arg.b == b; }

TEST(ArchDiff, IdenticalDescriptionsHaveNoDifferences) {
  EXPECT_THAT(diff_specs(load_spec("h200").spec, load_spec("h200").spec), ElementsAre());
}

TEST(ArchDiff, ScalarsThatDiffer) {
  const auto rows = diff_specs(load_spec("h100").spec, load_spec("h200").spec);
  EXPECT_THAT(rows, Contains(Row("hbm.channels", "80", "96")));
  EXPECT_THAT(rows, Contains(Row("clocks.sm_mhz", "1980", "1960")));
  EXPECT_THAT(rows, Contains(Row("hbm.data_rate_gbps_per_pin", "5.234", "6.25")));
  EXPECT_THAT(rows, Contains(Row("name", "\"H100 SXM\"", "\"H200\"")));
  EXPECT_THAT(rows, Contains(Row("hbm.timings.rcd_cycles", "37", "45")));
  EXPECT_THAT(rows, Not(Contains(Field(&FieldDifference::path, "sm.count"))));
  EXPECT_THAT(rows, Not(Contains(Field(&FieldDifference::path, "clocks"))));
  EXPECT_THAT(rows, Contains(Row("l2.partial_lines", "64000", "76800")));
  EXPECT_THAT(rows, Contains(Field(&FieldDifference::path, "launch.cta_sm_order")));
  EXPECT_THAT(rows, Contains(Field(&FieldDifference::path, "l2.request_coalescer_sm_sources")));
  EXPECT_THAT(rows, Contains(Field(&FieldDifference::path, "hbm.background_read_bytes")));
  EXPECT_THAT(rows, Contains(Row("l2.address_hash", "\"crc_block\"", "\"crc_even\"")));
  EXPECT_THAT(rows, Contains(Row("hbm.timings.request_gap_cycles", "1", "2")));
  EXPECT_THAT(rows, Contains(Row("launch.cta_launch_interval_cycles", "19", "17")));
  EXPECT_EQ(rows.size(), 45u);  // 25 from the memory and clocks, 7 fitted on the H200, 2 L2 size,
                                // 1 L2 partial lines, 4 SM tables and 3 background lists
                                // measured on the H200, 1 slice hash each GPU's chase picks,
                                // 1 HBM cost per request each GPU's probe fits, 1 CTA spacing
                                // each GPU's launches measure
}

TEST(ArchDiff, OverridesShowUp) {
  const auto rows = diff_specs(
      load_spec("h200").spec,
      load_spec("h200",
                {"sm.count=144", "l1.shared_carveout_kb=[0,8,16,32,64,100,132,164,196]",
                 "shared_memory.per_sm_max_bytes=200704", "shared_memory.per_cta_max_bytes=199680",
                 "tensor.dense_flops_per_clk_per_sm[fp4]=32768",
                 "tensor.shapes[wgmma.m64n64k16.f16].latency_cycles=40"})
          .spec);
  EXPECT_THAT(
      rows, ElementsAre(Row("sm.count", "132", "144"),
                        Row("l1.shared_carveout_kb", "[0, 8, 16, 32, 64, 100, 132, 164, 196, 228]",
                            "[0, 8, 16, 32, 64, 100, 132, 164, 196]"),
                        Row("shared_memory.per_sm_max_bytes", "233472", "200704"),
                        Row("shared_memory.per_cta_max_bytes", "232448", "199680"),
                        Row("tensor.dense_flops_per_clk_per_sm[fp4]", "(unset)", "32768"),
                        Row("tensor.shapes[wgmma.m64n64k16.f16].latency_cycles", "32", "40")));
}

TEST(ArchDiff, SubmessagesAndMapEntriesOnOneSideExpand) {
  const auto rows = diff_specs(load_spec("h100").spec, load_spec("mi300x").spec);
  EXPECT_THAT(rows, Contains(Row("memory_side_cache.size_bytes", "(unset)", "268435456")));
  EXPECT_THAT(rows, Contains(Row("dies.link_bandwidth_gb_per_s", "(unset)", "2150")));
  EXPECT_THAT(rows, Contains(Row("tensor.shapes[mfma.32x32x8.f16].m", "(unset)", "32")));
  EXPECT_THAT(rows, Contains(Row("tensor.shapes[wgmma.m64n256k16.f16].n", "256", "(unset)")));
  EXPECT_THAT(rows, Contains(Row("tensor.dense_flops_per_clk_per_sm[tf32]", "2048", "(unset)")));
  EXPECT_THAT(rows, Contains(Row("l1.unified_with_shared", "true", "false")));
  EXPECT_THAT(rows, Contains(Row("l1.shared_carveout_kb",
                                 "[0, 8, 16, 32, 64, 100, 132, 164, 196, 228]", "[]")));
  EXPECT_THAT(rows,
              Contains(Row("tensor.shapes[mfma.32x32x8.f16].issue_scope", "(unset)", "WAVEFRONT")));
}

}  // namespace
}  // namespace warpsim::arch
