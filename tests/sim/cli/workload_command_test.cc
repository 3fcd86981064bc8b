#include <gtest/gtest.h>

#include "tests/sim/cli/cli_test_util.h"

namespace warpsim::cli {
namespace {

using testing::run_cli;

TEST(CliWorkload, ListShowsEveryModelWithItsDefaults) {
  const auto r = run_cli({"workload", "list"});
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* name : {"copy", "saxpy", "strided_copy", "pointer_chase", "ffma_dependent",
                           "divergent_8way", "transpose_tile33", "reduce_warp_shuffle",
                           "occupancy"}) {
    EXPECT_NE(r.out.find(std::string(name) + " "), std::string::npos) << name;
  }
  EXPECT_NE(r.out.find("n=16777216"), std::string::npos);
}

TEST(CliWorkload, ShowPrintsTheLaunchAndInstructionMix) {
  const auto r = run_cli({"workload", "show", "saxpy", "--param", "n=1000"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("grid (4,1,1), block (256,1,1), 16 registers/thread"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("n               1000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LOAD_STORE="), std::string::npos) << r.out;
}

}  // namespace
}  // namespace warpsim::cli
