// `warpsim trace info | convert` and `warpsim run --trace`, in-process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/sim/cli/cli_test_util.h"

namespace warpsim::cli {
namespace {

using testing::run_cli;

std::string fixture(const std::string& name) {
  const char* root = std::getenv("WARPSIM_SOURCE_DIR");
  return std::string(root != nullptr ? root : ".") + "/tests/fixtures/accelsim/" + name;
}

std::string temp(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_cli_trace_tests";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

TEST(CliTraceCommand, InfoPrintsKernelsClassesFootprintAndRatio) {
  const auto r = run_cli({"trace", "info", fixture("v3/kernelslist.g")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("kernel 0: _Z6vecAddPfS_S_i (id 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grid (2,1,1), block (64,1,1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 host-to-device copies before it (264196 B)"), std::string::npos);
  EXPECT_NE(r.out.find("2 CTAs, 4 warps, 10 warp instructions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("by class:"), std::string::npos);
  EXPECT_NE(r.out.find("footprint:"), std::string::npos);
  EXPECT_NE(r.out.find("compression ratio"), std::string::npos);
}

TEST(CliTraceCommand, ConvertsBothWaysAndRunsTheTrace) {
  const std::string wstrace = temp("v6.wstrace");
  auto r = run_cli({"trace", "convert", fixture("v6/kernelslist.g"), wstrace});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 kernels, 2 CTAs, 9 warp instructions"), std::string::npos) << r.out;
  r = run_cli({"trace", "info", wstrace});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(".wstrace written by warpsim"), std::string::npos) << r.out;
  const std::string back = temp("v6_back");
  std::filesystem::remove_all(back);
  r = run_cli({"trace", "convert", wstrace, back, "--to", "accelsim-xz"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(back + "/kernel-1.traceg.xz"));
  r = run_cli({"run", "--arch", "h100", "--trace", back + "/kernelslist.g", "--quiet"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("_Z4gemmv"), std::string::npos) << r.out;
}

TEST(CliTraceCommand, WritesAWorkloadAsAnAccelSimTrace) {
  const std::string out = temp("saxpy_accelsim");
  std::filesystem::remove_all(out);
  auto r = run_cli({"trace", "convert", "--workload", "saxpy", "--param", "n=4096",
                    out + "/kernelslist.g"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 kernels, 16 CTAs"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(out + "/kernel-1.traceg"));
  r = run_cli({"trace", "info", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("16 CTAs"), std::string::npos) << r.out;
  r = run_cli({"trace", "convert", "--param", "n=1", "a", "b.wstrace"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--param needs --workload"), std::string::npos) << r.err;
}

TEST(CliTraceCommand, CrossIsaReplayWarnsAboutMissingOpcodes) {
  // The v6 fixture with a shared-memory size the A100 can hold.
  std::ifstream in(fixture("v6/kernel-1-ctx_0x55d0c8.traceg"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("-shmem = 232448"), 15, "-shmem = 1024");
  const std::string hopper = temp("hopper.traceg");
  std::ofstream(hopper) << text;
  const auto r = run_cli({"run", "--arch", "a100", "--trace", hopper, "--quiet"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("that sm_80 lacks"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("HGMMA"), std::string::npos) << r.err;
}

TEST(CliTraceCommand, BadInputExits2NamingFileAndLine) {
  const std::string bad = temp("bad.traceg");
  std::ofstream(bad) << "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
                        "-binary version = 90\n#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
                        "insts = 1\n0000 ffffffff 1 R1 MOV 1 R2 zz\n#END_TB\n";
  auto r = run_cli({"trace", "info", bad});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.traceg:10: expected a memory width in bytes, got 'zz'"),
            std::string::npos)
      << r.err;
  r = run_cli({"trace", "convert", bad, temp("x.unknown")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown trace format"), std::string::npos) << r.err;
  r = run_cli({"trace", "convert", bad, temp("x.wstrace"), "--to", "zip"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--to: expected wstrace, accelsim or accelsim-xz"), std::string::npos);
  r = run_cli({"run", "--trace", temp("missing.wstrace"), "--quiet"});
  EXPECT_EQ(r.status, 2);
}

}  // namespace
}  // namespace warpsim::cli
