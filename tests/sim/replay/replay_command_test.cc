// `warpsim replay` end to end, in-process: a report and its source page replayed on B200 with JSON
// output; malformed, truncated and empty inputs exit 2 naming the file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

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

}  // namespace
}  // namespace warpsim::replay
