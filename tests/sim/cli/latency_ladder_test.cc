// The latency ladder of each preset against the pointer-chase figures its description comes from
// (HARDWARE.md; the MI300X's are placeholders): the simulated chase's steady-state hop at an
// L1-sized, an L2-sized and an HBM-sized footprint lies within 5 % of the published hop. The full
// ladders, 16 KB to 1 GB, are validate/ladder/*.csv.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "tests/sim/cli/cli_test_util.h"

namespace warpsim::cli {
namespace {

using testing::run_cli;

// Elapsed cycles of a chase of `hops` hops over `footprint` bytes on `arch`.
double chase_cycles(const std::string& arch, long long footprint, long long hops) {
  std::string file = "warpsim_ladder_" + arch + "_" + std::to_string(::getpid()) + ".csv";
  for (char& c : file) c = c == '/' ? '_' : c;
  const auto csv = std::filesystem::temp_directory_path() / file;
  const auto r = run_cli({"run", "--arch", arch, "--workload", "pointer_chase", "--param",
                          "footprint_bytes=" + std::to_string(footprint), "--param",
                          "hops=" + std::to_string(hops), "--csv", csv.string(), "--quiet"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::ifstream in(csv);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find(",gpc__cycles_elapsed.max,");
    if (at == std::string::npos) continue;
    const auto value = line.substr(at + 25);
    in.close();
    std::filesystem::remove(csv);
    return std::stod(value.substr(0, value.find(',')));
  }
  ADD_FAILURE() << "no gpc__cycles_elapsed.max for " << arch;
  return 0;
}

// Steady-state cycles per hop: (cycles of 2n hops - cycles of n hops) / n.
double hop(const std::string& arch, long long footprint, long long n) {
  return (chase_cycles(arch, footprint, 2 * n) - chase_cycles(arch, footprint, n)) /
         static_cast<double>(n);
}

struct Level {
  const char* arch;
  double l1, l2, far_memory;  // cycles per hop: L1, L2 near, HBM (MI300X: MALL), published or,
                              // for the H100's L2 and HBM, validate/ladder/measured/h100.csv
  long long far_footprint;    // a footprint whose steady-state hops reach far_memory
  long long far_hops;         // hops measured there (n)
};

class LatencyLadder : public ::testing::TestWithParam<Level> {};

TEST_P(LatencyLadder, LevelsWithinFivePercentOfTheDescription) {
  const Level& p = GetParam();
  EXPECT_NEAR(hop(p.arch, 16384, 1024), p.l1, 0.05 * p.l1);          // 128 nodes, L1 hits
  EXPECT_NEAR(hop(p.arch, 1 << 20, 8192), p.l2, 0.05 * p.l2);        // 8192 nodes, L2 hits
  EXPECT_NEAR(hop(p.arch, p.far_footprint, p.far_hops), p.far_memory, 0.05 * p.far_memory);
}

INSTANTIATE_TEST_SUITE_P(
    Presets, LatencyLadder,
    // HBM: the first 6000 hops over 2 M nodes or more, each to a line not yet visited. MI300X:
    // the second pass over 8 MB of nodes, beyond the XCD's 4 MB L2, hits the Infinity Cache.
    ::testing::Values(Level{"nvidia/h100_sxm", 40.7, 278.5, 676.7, 256ll << 20, 2000},
                      Level{"nvidia/a100", 37.9, 208, 466, 256ll << 20, 2000},
                      Level{"nvidia/b200", 40, 295, 860, 512ll << 20, 2000},
                      Level{"amd/mi300x", 120, 250, 500, 8ll << 20, 65536}),
    [](const auto& info) {
      std::string name = info.param.arch;
      return name.substr(name.find('/') + 1);
    });

}  // namespace
}  // namespace warpsim::cli
