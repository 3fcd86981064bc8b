#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/sim/cli/cli_test_util.h"

namespace warpsim::cli {
namespace {

using testing::run_cli;

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CliRun, SimulatesAWorkloadAndWritesEveryFormat) {
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_run_test";
  std::filesystem::create_directories(dir);
  const auto json = dir / "out.json", csv = dir / "out.csv", timeline = dir / "timeline.json",
             source = dir / "source.csv", ctas = dir / "ctas.tsv";
  const auto r = run_cli({"run", "--arch", "h200", "--workload", "copy", "--param", "n=4096",
                          "--json", json.string(), "--csv", csv.string(), "--timeline",
                          timeline.string(), "--source", source.string(), "--cta-log",
                          ctas.string(), "--quiet",
                          // the kernel's own DRAM bytes alone, without the GPU's background
                          "--set", "hbm.background_seconds=[]", "--set",
                          "hbm.background_read_bytes=[]", "--set", "hbm.background_write_bytes=[]"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Elapsed Cycles"), std::string::npos) << r.out;
  google::protobuf::Struct doc;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(read(json), &doc).ok());
  const auto& f = doc.fields();
  EXPECT_EQ(f.at("arch").struct_value().fields().at("name").string_value(), "H200");
  const auto& kernel = f.at("kernels").list_value().values(0).struct_value().fields();
  EXPECT_EQ(kernel.at("metrics").struct_value().fields().at("dram__bytes_read.sum").number_value(),
            16384);
  EXPECT_GT(f.at("simulation").struct_value().fields().at("warp_instructions").number_value(), 0);
  EXPECT_NE(read(csv).find("dram__bytes_read.sum,16384,byte"), std::string::npos);
  google::protobuf::Struct trace;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(read(timeline), &trace).ok());
  // The source profile, recorded beside the timeline: 4096 floats are 128 warps' loads.
  const std::string by_pc = read(source);
  EXPECT_EQ(by_pc.rfind("kernel,pc,opcode,executions,stall_selected,", 0), 0u) << by_pc;
  EXPECT_NE(by_pc.find(",LDG.E.CONSTANT,128,128,"), std::string::npos) << by_pc;
  // The CTA log, recorded with both: a header and one row of 8 fields per CTA of the grid.
  std::istringstream log(read(ctas));
  std::string line;
  ASSERT_TRUE(std::getline(log, line));
  EXPECT_EQ(line, "kernel\tcta_x\tcta_y\tcta_z\tsm\tslot\tlaunch_cycle\tretire_cycle");
  int rows = 0;
  while (std::getline(log, line)) {
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\t'), 7) << line;
  }
  EXPECT_EQ(rows, kernel.at("metrics").struct_value().fields().at("launch__grid_size").number_value());
}

TEST(CliRun, ATimelineBeyondItsEventBudgetKeepsTheFirstAndSaysSo) {
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_run_timeline_budget";
  std::filesystem::create_directories(dir);
  const auto timeline = dir / "timeline.json";
  const auto r = run_cli({"run", "--workload", "copy", "--param", "n=65536", "--timeline",
                          timeline.string(), "--timeline-events", "1320", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("raise --timeline-events"), std::string::npos) << r.err;
  google::protobuf::Struct trace;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(read(timeline), &trace).ok());
  EXPECT_GT(trace.fields().at("otherData").struct_value().fields().at("dropped_events").number_value(),
            0);
  // Enough room: no warning.
  const auto all = run_cli({"run", "--workload", "copy", "--param", "n=4096", "--timeline",
                            timeline.string(), "--quiet"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(all.err.find("raise --timeline-events"), std::string::npos) << all.err;
  EXPECT_EQ(run_cli({"run", "--workload", "copy", "--timeline", timeline.string(),
                     "--timeline-events", "0"})
                .status,
            2);
}

TEST(CliRun, SetOverridesTheDescription) {
  const auto a = run_cli({"run", "--workload", "copy", "--param", "n=4096", "--quiet"});
  const auto b = run_cli({"run", "--workload", "copy", "--param", "n=4096", "--quiet", "--set",
                          "l1.hit_latency_cycles=100"});
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(a.out, b.out);  // a slower L1 changes the timing
}

TEST(CliRun, BadInputExits2) {
  EXPECT_EQ(run_cli({"run", "--workload", "sgemm"}).status, 2);
  EXPECT_EQ(run_cli({"run", "--workload", "copy", "--param", "n=0"}).status, 2);
  EXPECT_EQ(run_cli({"run", "--workload", "copy", "--arch", "h300"}).status, 2);
  EXPECT_EQ(run_cli({"run", "--workload", "copy", "--set", "sm.cont=1"}).status, 2);
  const auto r = run_cli({"run", "--workload", "copy", "--param", "n=64", "--json",
                          "/nonexistent/dir/out.json"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/nonexistent/dir/out.json"), std::string::npos) << r.err;
}

TEST(CliValidate, ComparesAReferencePoint) {
  const char* src = std::getenv("WARPSIM_SOURCE_DIR");
  const std::string ref = std::string(src ? src : ".") + "/validate/reference/h200";
  const auto r = run_cli({"validate", "--reference", ref, "--only", "pointer_chase/footprint=16384"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("pointer_chase/footprint=16384"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli({"validate", "--reference", "/nonexistent"}).status, 2);
}

TEST(CliValidate, JobsDoNotChangeTheOutput) {
  const char* src = std::getenv("WARPSIM_SOURCE_DIR");
  const std::string ref = std::string(src ? src : ".") + "/validate/reference/h200";
  const auto one = run_cli({"validate", "--reference", ref, "--only", "ctas=1,threads=32"});
  const auto three =
      run_cli({"validate", "--reference", ref, "--only", "ctas=1,threads=32", "--jobs", "3"});
  EXPECT_EQ(one.status, three.status) << three.err;
  EXPECT_EQ(one.out, three.out);
  EXPECT_NE(one.out.find("sfu/ctas=1,threads=32"), std::string::npos) << one.out;
}

TEST(CliValidate, SavedRunsReplaceTheSimulationsAndSkipLeavesPointsOut) {
  const char* src = std::getenv("WARPSIM_SOURCE_DIR");
  const std::string ref = std::string(src ? src : ".") + "/validate/reference/h200";
  const std::string saved = ::testing::TempDir() + "cli_validate_runs.tsv";
  const auto first = run_cli({"validate", "--reference", ref, "--only", "ctas=1,threads=32",
                              "--skip", "sfu", "--save-runs", saved});
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.out.find("sfu/ctas=1,threads=32"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("integer/ctas=1,threads=32"), std::string::npos) << first.out;
  // Loaded: the same output, with nothing simulated.
  const auto again = run_cli({"validate", "--reference", ref, "--only", "ctas=1,threads=32",
                              "--skip", "sfu", "--load-runs", saved});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.out, first.out);
  EXPECT_NE(again.err.find("3 of 3 runs taken from --load-runs"), std::string::npos) << again.err;
  // A file that is not a saved-runs file: exit 2, naming it.
  const auto bad = run_cli({"validate", "--reference", ref, "--only", "ctas=1,threads=32",
                            "--load-runs", ref + "/points.tsv"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("points.tsv:1: expected the header"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace warpsim::cli
