#include "traces/ncu/raw_page.h"

#include <gtest/gtest.h>

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
