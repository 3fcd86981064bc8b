// `warpsim replay` end to end, in-process: a report and its source page replayed on B200 with JSON
// output; malformed, truncated and empty inputs exit 2 naming the file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli/command.h"
#include "tests/sim/replay/replay_test_util.h"

namespace warpsim::replay {
namespace {

using testing::shared_stride_dir;

struct Result {
  int status;
  std::string out, err;
};

Result run(const cli::Args& argv) {
  std::ostringstream out, err;
  cli::CommandIo io{out, err, false};
  const int status = cli::run_command_line(argv, io);
  return {status, out.str(), err.str()};
}

std::string temp_file(const std::string& name, const std::string& contents) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(ReplayCommand, ReplaysAReportOnB200WithJson) {
  const std::string json = ::testing::TempDir() + "replay.json";
  const Result r =
      run({"replay", shared_stride_dir() + "report.ncu-rep", shared_stride_dir() + "src_sass.csv",
           "--arch", "b200", "--json", json, "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("k(const float *, float *, int) | sass listing | 9864 | h200: "),
            std::string::npos)
      << r.out;
  std::ifstream in(json);
  std::stringstream s;
  s << in.rdbuf();
  for (const char* key : {"\"gpc__cycles_elapsed.max\"", "\"predicted_source\"",
                          "\"predicted_target\"", "\"speedup\"", "\"bottleneck\"",
                          "\"source_arch\": \"h200\"", "\"fidelity\": \"sass listing\""}) {
    EXPECT_NE(s.str().find(key), std::string::npos) << key;
  }
  // Keys come out sorted, so the file is the same from run to run.
  const std::string text = s.str();
  EXPECT_LT(text.find("\"kernels\""), text.find("\"target_arch\""));
  EXPECT_LT(text.find("\"target_arch\""), text.find("\"warpsim_version\""));
  const std::size_t measured = text.find("\"measured\"");
  ASSERT_NE(measured, std::string::npos);
  std::size_t last = measured;
  for (const char* key : {"\"dram__bytes_read.sum\"", "\"gpc__cycles_elapsed.max\"",
                          "\"smsp__inst_executed.sum\""}) {
    const std::size_t at = text.find(key, measured);
    ASSERT_NE(at, std::string::npos) << key;
    EXPECT_LT(last, at) << key;
    last = at;
  }
}

TEST(ReplayCommand, BadInputsExit2NamingTheFile) {
  const std::string report = ::testing::TempDir() + "missing.ncu-rep";
  std::ifstream good(shared_stride_dir() + "report.ncu-rep", std::ios::binary);
  std::stringstream bytes;
  bytes << good.rdbuf();
  const std::string truncated = temp_file("truncated.ncu-rep", bytes.str().substr(0, 5000));
  const std::string empty = temp_file("empty.csv", "");
  const std::string garbage = temp_file("garbage.csv", "hello\nworld\n");
  for (const std::string& path : {report, truncated, empty, garbage}) {
    const Result r = run({"replay", path, "--arch", "h200", "--quiet"});
    EXPECT_EQ(r.status, 2) << path;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  }
  EXPECT_EQ(run({"replay", "--arch", "h200"}).status, 2);
  EXPECT_EQ(run({"replay", shared_stride_dir() + "report.ncu-rep"}).status, 2);
  EXPECT_EQ(run({"replay", "--help"}).status, 0);
}

TEST(ReplayCommand, LaunchListsAreCheckedBeforeAnySimulation) {
  const std::string report = shared_stride_dir() + "report.ncu-rep";
  for (const char* list : {"3", "0-x", "1-0", "a"}) {
    const Result r = run({"replay", report, "--arch", "h200", "--launch", list, "--quiet"});
    EXPECT_EQ(r.status, 2) << list;
    EXPECT_NE(r.err.find("--launch"), std::string::npos) << r.err;
  }
}

// --source: per PC the measured and simulated executions and stall shares; each side's shares
// cover the whole kernel (100 %), the listing's counts are replayed exactly, and an unwritable
// file exits 2 before any simulation.
TEST(ReplayCommand, SourceComparisonSetsThePagesSideBySide) {
  const std::string csv = ::testing::TempDir() + "replay_source.csv";
  const Result r =
      run({"replay", shared_stride_dir() + "report.ncu-rep", shared_stride_dir() + "src_sass.csv",
           "--arch", "h200", "--no-self-check", "--source", csv, "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(csv);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.rfind("launch,kernel,pc,sass,executions_measured,executions_simulated,"
                       "share_measured,share_simulated,selected_measured,selected_simulated,",
                       0),
            0u)
      << line;
  double measured = 0, simulated = 0;
  int rows = 0, exact = 0, counted = 0;
  while (std::getline(in, line)) {
    // Fields after the quoted kernel name and SASS text.
    std::vector<std::string> f;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        f.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    f.push_back(cell);
    ASSERT_EQ(f.size(), 8u + 2 * 18) << line;
    ++rows;
    if (std::stod(f[4]) > 0) {
      ++counted;
      exact += f[4] == f[5];
    }
    measured += std::stod(f[6]);
    simulated += std::stod(f[7]);
  }
  EXPECT_GT(rows, 10);
  EXPECT_NEAR(measured, 100, 0.1);
  EXPECT_NEAR(simulated, 100, 0.1);
  // Every executed PC but the listing's EXITs (each replayed warp ends with its own).
  EXPECT_GE(exact, counted - 2) << exact << " of " << counted;
  const Result bad = run({"replay", shared_stride_dir() + "report.ncu-rep", "--arch", "h200",
                          "--source", "/nonexistent/dir/x.csv", "--quiet"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--source /nonexistent/dir/x.csv"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace warpsim::replay
