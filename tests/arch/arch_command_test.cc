// `warpsim arch` run in-process: arch_command() directly, and run_command_line() for exit statuses.
#include <gmock/gmock.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <sstream>

#include "arch/arch.pb.h"
#include "arch/error.h"
#include "sim/cli/command.h"

namespace warpsim::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Result {
  int status;
  std::string out;
  std::string err;
};

Result run(const Args& args) {
  std::ostringstream out;
  std::ostringstream err;
  CommandIo io{out, err, false};
  const int status = run_command_line(args, io);
  return {status, out.str(), err.str()};
}

std::string arch(const Args& args) {
  std::ostringstream out;
  std::ostringstream err;
  CommandIo io{out, err, false};
  EXPECT_EQ(arch_command(args, io), kExitOk);
  EXPECT_EQ(err.str(), "");
  return out.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

// Table cells: columns are separated by two or more spaces.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> result;
  std::size_t start = 0;
  while (start < line.size()) {
    std::size_t gap = line.find("  ", start);
    if (gap == std::string::npos) gap = line.size();
    if (gap > start) result.push_back(line.substr(start, gap - start));
    start = line.find_first_not_of(' ', gap);
    if (start == std::string::npos) break;
  }
  return result;
}

TEST(ArchCommand, ListHasOneLinePerPresetWithDerivedFigures) {
  const auto table = lines(arch({"list"}));
  ASSERT_EQ(table.size(), 6u);
  EXPECT_THAT(cells(table[0]),
              ElementsAre("preset", "GPU", "SMs", "SM MHz", "L2 MiB", "mem-side MiB", "HBM TB/s",
                          "FP16 TFLOP/s", "FP8 TFLOP/s"));
  EXPECT_THAT(cells(table[1]), ElementsAre("amd/mi300x", "MI300X", "304", "2100", "32.0", "256.0",
                                           "5.30", "1307.4", "2614.9"));
  EXPECT_THAT(cells(table[2]),
              ElementsAre("nvidia/a100", "A100", "108", "1410", "40.0", "—", "2.04", "311.9", "—"));
  EXPECT_THAT(cells(table[3]), ElementsAre("nvidia/b200", "B200", "148", "1965", "126.0", "—",
                                           "8.00", "2255.1", "4510.2"));
  EXPECT_THAT(cells(table[4]), ElementsAre("nvidia/h100_sxm", "H100 SXM", "132", "1980", "50.0",
                                           "—", "3.35", "989.4", "1978.9"));
  EXPECT_THAT(cells(table[5]), ElementsAre("nvidia/h200", "H200", "132", "1960", "60.0", "—",
                                           "4.80", "989.4", "1978.9"));
}

TEST(ArchCommand, ShowPrintsTheResolvedTextFormatWithOverrides) {
  const std::string text = arch({"show", "h200", "--set", "sm.count=144", "--set", "l2.ways=8"});
  EXPECT_THAT(text, StartsWith("# nvidia/h200, resolved by warpsim arch show --set "
                               "'sm.count=144' --set 'l2.ways=8'\nname: \"H200\"\n"));
  EXPECT_THAT(text, HasSubstr("\nsm {\n  count: 144\n"));
  arch::Spec parsed;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &parsed));
  EXPECT_EQ(parsed.sm().count(), 144u);
  EXPECT_EQ(parsed.l2().ways(), 8u);
  EXPECT_EQ(parsed.hbm().channels(), 96u);
}

TEST(ArchCommand, ShowJsonParsesBack) {
  const std::string json = arch({"show", "mi300x", "--json"});
  EXPECT_THAT(json, HasSubstr("\"warp_size\": 64"));
  arch::Spec parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &parsed).ok());
  EXPECT_EQ(parsed.sm().count(), 304u);
  EXPECT_EQ(parsed.sm().warp_size(), 64u);
  EXPECT_EQ(parsed.memory_side_cache().size_bytes(), 268435456u);
  EXPECT_EQ(parsed.tensor().dense_flops_per_clk_per_sm().at("fp16"), 2048);
}

TEST(ArchCommand, DiffPrintsEachDifferingFieldWithBothValues) {
  const auto table = lines(arch({"diff", "h100", "h200"}));
  ASSERT_GE(table.size(), 2u);
  EXPECT_THAT(cells(table[0]), ElementsAre("field", "nvidia/h100_sxm", "nvidia/h200"));
  EXPECT_THAT(cells(table[1]), ElementsAre("name", "\"H100 SXM\"", "\"H200\""));
  int found = 0;
  for (const auto& line : table) {
    if (cells(line) == std::vector<std::string>{"hbm.channels", "80", "96"}) ++found;
  }
  EXPECT_EQ(found, 1);
  EXPECT_EQ(arch({"diff", "h200", "nvidia/h200"}),
            "no differences between nvidia/h200 and nvidia/h200\n");
}

TEST(ArchCommand, DiffOverridesOneOrBothSides) {
  EXPECT_EQ(arch({"diff", "h200", "h200", "--set-b", "sm.count=144"}),
            "field     nvidia/h200  nvidia/h200\n"
            "sm.count          132          144\n");
  const auto table =
      lines(arch({"diff", "h200", "h200", "--set", "sm.count=140", "--set-a", "l2.ways=8"}));
  ASSERT_EQ(table.size(), 2u);
  EXPECT_THAT(cells(table[1]), ElementsAre("l2.ways", "8", "32"));
}

TEST(ArchCommand, HelpAtEveryLevel) {
  EXPECT_THAT(arch({"--help"}), StartsWith("usage: warpsim arch list | show <arch>"));
  EXPECT_THAT(arch({"list", "--help"}), StartsWith("usage: warpsim arch list\n"));
  EXPECT_THAT(arch({"show", "--help"}), HasSubstr("--set"));
  EXPECT_THAT(arch({"show", "-h"}), StartsWith("usage: warpsim arch show <arch>"));
  EXPECT_THAT(arch({"diff", "--help"}), HasSubstr("--set-b"));
  const Result top = run({"arch", "--help"});
  EXPECT_EQ(top.status, kExitOk);
  EXPECT_THAT(top.out, HasSubstr("actions:"));
}

TEST(ArchCommand, BadInputExitsTwoWithAMessage) {
  const auto expect_bad = [](const Args& args, const std::string& message) {
    const Result result = run(args);
    EXPECT_EQ(result.status, kExitBadInput) << args.back();
    EXPECT_THAT(result.err, HasSubstr(message)) << args.back();
    EXPECT_EQ(result.out, "");
  };
  expect_bad({"arch"}, "missing action (list, show or diff)");
  expect_bad({"arch", "lsit"}, "unknown action 'lsit'");
  expect_bad({"arch", "show"}, "arch");
  expect_bad({"arch", "show", "h900"}, "unknown architecture 'h900'");
  expect_bad({"arch", "show", "h200", "--set", "sm.cuont=1"},
             "unknown field 'cuont' in sm (warpsim.arch.Sm)");
  expect_bad({"arch", "show", "h200", "--set", "sm.count=many"},
             "sm.count expects a non-negative 32-bit integer, got 'many'");
  expect_bad({"arch", "show", "h200", "--set", "l1.line_bytes=96"},
             "l1.line_bytes = 96 must be a power of two");
  expect_bad({"arch", "show", "h200", "--bogus"}, "bogus");
  expect_bad({"arch", "list", "extra"}, "too many positional options");
  expect_bad({"arch", "diff", "h200"}, "b");
  expect_bad({"arch", "diff", "h200", "h900"}, "unknown architecture 'h900'");
  expect_bad({"arch", "show", "/nonexistent/x.textproto"},
             "cannot read architecture file '/nonexistent/x.textproto'");
}

}  // namespace
}  // namespace warpsim::cli
