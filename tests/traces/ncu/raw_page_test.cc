#include "traces/ncu/raw_page.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "arch/error.h"
#include "traces/ncu/csv.h"

namespace warpsim::traces::ncu {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fixtures() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return std::string(dir ? dir : ".") + "/../shared/fixtures/ncu/";
}

TEST(NcuCsv, QuotesCommasNewlinesAndLines) {
  const auto rows = parse_csv("a,\"b,c\",\"d\"\"e\"\r\n\"multi\nline\",x\n\nlast,", "t.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].fields, (std::vector<std::string>{"a", "b,c", "d\"e"}));
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"multi\nline", "x"}));
  EXPECT_EQ(rows[1].line, 2u);
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"last", ""}));
  EXPECT_EQ(rows[2].line, 5u);
  try {
    parse_csv("a\n\"open,b\n", "t.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.csv:2"), std::string::npos) << e.what();
  }
}

TEST(NcuCsv, Numbers) {
  EXPECT_EQ(parse_ncu_number("10,003.98"), 10003.98);
  EXPECT_EQ(parse_ncu_number("1,960,215,963.38"), 1960215963.38);
  EXPECT_EQ(parse_ncu_number("32"), 32.0);
  EXPECT_EQ(parse_ncu_number("1.5e+09"), 1.5e9);
  EXPECT_EQ(parse_ncu_number("n/a"), std::nullopt);
  EXPECT_EQ(parse_ncu_number(""), std::nullopt);
  EXPECT_EQ(parse_ncu_number("(256, 1, 1)"), std::nullopt);
}

TEST(NcuRawPage, ReadsTheFixtureWithUnits) {
  const std::string path = fixtures() + "h200-shared-stride/raw_base.csv";
  const RawPage page = parse_raw_page(read_file(path), path);
  ASSERT_EQ(page.records.size(), 1u);
  EXPECT_EQ(page.records[0].text("Kernel Name"), "k(const float *, float *, int)");
  EXPECT_EQ(page.records[0].text("Block Size"), "(256, 1, 1)");
  EXPECT_EQ(page.units.at("gpc__cycles_elapsed.max"), "cycle");
  EXPECT_EQ(page.require(0, "gpc__cycles_elapsed.max"), 9864.0);
  EXPECT_EQ(page.require(0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 131072.0);
  EXPECT_THROW(page.require(0, "no__such_metric.sum"), InputError);
  EXPECT_THROW(page.require(1, "gpc__cycles_elapsed.max"), InputError);
}

TEST(NcuRawPage, SkipsLiveOutputBeforeTheHeader) {
  const std::string path = fixtures() + "h200-saxpy-diverge/raw_live.csv";
  const RawPage page = parse_raw_page(read_file(path), path);
  ASSERT_GE(page.records.size(), 1u);
  EXPECT_EQ(page.records[0].text("Kernel Name"), "saxpy(int, float, const float *, float *)");
  EXPECT_GT(page.records[0].line, 3u);
}

TEST(NcuRawPage, Errors) {
  EXPECT_THROW(parse_raw_page("", "e.csv"), InputError);
  EXPECT_THROW(parse_raw_page("hello\nworld\n", "e.csv"), InputError);
  try {
    parse_raw_page("\"ID\",\"Kernel Name\",\"m\"\n\"0\",\"k\"\n", "e.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("e.csv:2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpsim::traces::ncu

namespace warpsim::traces::ncu {
namespace {

TEST(NcuCsv, LocaleSwappedSeparatorsAndUnits) {
  EXPECT_EQ(parse_ncu_number("10.003,98", DecimalMark::kComma), 10003.98);
  EXPECT_EQ(parse_ncu_number("1.960.215.963,38", DecimalMark::kComma), 1960215963.38);
  const auto rows = parse_csv("\"ID\",\"m\"\n\"0\",\"1.234.567\"\n\"1\",\"3,5\"\n", "l.csv");
  EXPECT_EQ(detect_decimal_mark(rows, 1), DecimalMark::kComma);
  const auto us = parse_csv("\"ID\",\"m\"\n\"0\",\"1,234,567\"\n\"1\",\"3.5\"\n", "l.csv");
  EXPECT_EQ(detect_decimal_mark(us, 1), DecimalMark::kDot);
  EXPECT_EQ(unit_to_base_factor("Kbyte"), 1e3);
  EXPECT_EQ(unit_to_base_factor("us"), 1e3);
  EXPECT_EQ(unit_to_base_factor("usecond"), 1e3);
  EXPECT_EQ(unit_to_base_factor("ns"), 1.0);
  EXPECT_EQ(unit_to_base_factor("Gbyte/s"), 1e9);
  EXPECT_EQ(unit_to_base_factor("sector/us"), 1e6);
  EXPECT_EQ(unit_to_base_factor("Ghz"), 1e9);
  EXPECT_EQ(unit_to_base_factor("cycle"), 1.0);
  EXPECT_EQ(unit_to_base_factor("%"), 1.0);
}

TEST(NcuCsv, InstancedValues) {
  const auto v = parse_instanced("4,888 (FFMA: 4,097; BRA: 259)");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->aggregate, 4888.0);
  ASSERT_EQ(v->instances.size(), 2u);
  EXPECT_EQ(v->instances[0].first, "FFMA");
  EXPECT_EQ(v->instances[0].second, 4097.0);
  const auto pcs = parse_instanced("(0x7f00: 1; 0x7f10: n/a)");
  ASSERT_TRUE(pcs);
  EXPECT_FALSE(pcs->aggregate.has_value());
  EXPECT_FALSE(pcs->instances[1].second.has_value());
  EXPECT_FALSE(parse_instanced("3 (oops").has_value());
  EXPECT_FALSE(parse_instanced("3 (no colon)").has_value());
}

TEST(NcuRawPage, EuropeanLocaleExport) {
  const std::string text =
      "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"cycle\",\"us\"\n"
      "\"0\",\"k\",\"10.003\",\"4,50\"\n"
      "\"1\",\"k\",\"1.234.567\",\"5,25\"\n";
  const RawPage page = parse_raw_page(text, "eu.csv");
  EXPECT_EQ(page.require(0, "gpc__cycles_elapsed.max"), 10003.0);
  EXPECT_EQ(page.require(1, "gpc__cycles_elapsed.max"), 1234567.0);
  EXPECT_DOUBLE_EQ(page.require(0, "gpu__time_duration.sum"), 4500.0);
}

TEST(NcuRawPage, ScaledUnitsEqualBaseUnits) {
  const std::string dir = fixtures() + "h200-shared-stride/";
  const RawPage scaled = parse_raw_page(read_file(dir + "raw.csv"), dir + "raw.csv");
  const RawPage base = parse_raw_page(read_file(dir + "raw_base.csv"), dir + "raw_base.csv");
  size_t compared = 0;
  for (const std::string& column : base.columns) {
    const auto a = scaled.records[0].number(column);
    const auto b = base.records[0].number(column);
    if (!a || !b) continue;
    EXPECT_NEAR(*a, *b, std::fabs(*b) * 1e-5 + 0.006) << column;
    ++compared;
  }
  EXPECT_GT(compared, 1000u);
}

TEST(NcuRawPage, InstancedFixture) {
  const std::string path = fixtures() + "h200-shared-stride/raw_inst.csv";
  const RawPage page = parse_raw_page(read_file(path), path);
  const auto v = page.records[0].instanced("inst_executed");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->instances.size(), 26u);
  EXPECT_EQ(page.records[0].number("inst_executed"), v->aggregate);
}

}  // namespace
}  // namespace warpsim::traces::ncu
