#include <gtest/gtest.h>

#include "tests/sim/cli/cli_test_util.h"

namespace warpsim::cli {
namespace {

using testing::run_cli;

TEST(CliCommandLine, NoArgumentsIsUsageErrorOnStderr) {
  const auto r = run_cli({});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("usage: warpsim <command>"), std::string::npos);
  EXPECT_TRUE(r.out.empty());
}

TEST(CliCommandLine, TopLevelHelpListsEveryCommand) {
  const auto r = run_cli({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* c : {"run", "arch", "workload", "trace", "validate", "replay"}) {
    EXPECT_NE(r.out.find(std::string("  ") + c + " "), std::string::npos) << c;
  }
}

TEST(CliCommandLine, VersionPrintsVersion) {
  const auto r = run_cli({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("warpsim ", 0), 0u);
}

TEST(CliCommandLine, UnknownCommandExits2) {
  const auto r = run_cli({"simulate"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown command 'simulate'"), std::string::npos);
}

class CliHelpAtEveryLevel : public ::testing::TestWithParam<Args> {};

TEST_P(CliHelpAtEveryLevel, HelpExits0WithUsage) {
  const auto r = run_cli(GetParam());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("usage: warpsim"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Levels, CliHelpAtEveryLevel,
    ::testing::Values(Args{"run", "--help"}, Args{"workload", "--help"},
                      Args{"workload", "show", "--help"}, Args{"trace", "--help"},
                      Args{"trace", "convert", "-h"}, Args{"validate", "--help"},
                      Args{"replay", "--help"}, Args{"arch", "--help"},
                      Args{"arch", "list", "--help"}, Args{"arch", "show", "--help"},
                      Args{"arch", "diff", "--help"}));

class CliUsageErrors : public ::testing::TestWithParam<std::pair<Args, std::string>> {};

TEST_P(CliUsageErrors, Exit2NamingTheProblem) {
  const auto& [args, expected] = GetParam();
  const auto r = run_cli(args);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliUsageErrors,
    ::testing::Values(
        std::pair{Args{"run"}, std::string("exactly one of --workload")},
        std::pair{Args{"run", "--workload", "a", "--trace", "b"},
                  std::string("exactly one of --workload")},
        std::pair{Args{"run", "--workload", "a", "--threads", "0"}, std::string("--threads")},
        std::pair{Args{"run", "--workload", "a", "--threads", "many"}, std::string("threads")},
        std::pair{Args{"run", "--bogus"}, std::string("bogus")},
        std::pair{Args{"workload"}, std::string("missing action")},
        std::pair{Args{"workload", "frobnicate"}, std::string("unknown action 'frobnicate'")},
        std::pair{Args{"workload", "show"}, std::string("wrong number of arguments")},
        std::pair{Args{"workload", "show", "sgemm"}, std::string("no workload named 'sgemm'")},
        std::pair{Args{"workload", "show", "copy", "--param", "n=0"}, std::string("at least 1")},
        std::pair{Args{"trace", "convert", "a"}, std::string("expected 2 argument")},
        std::pair{Args{"trace", "info", "--fast", "a"}, std::string("unknown option '--fast'")},
        std::pair{Args{"validate"}, std::string("reference")},
        std::pair{Args{"replay", "r.ncu-rep"}, std::string("arch")}));

}  // namespace
}  // namespace warpsim::cli
