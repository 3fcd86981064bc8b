// Tests for validate/saved_runs: the file of simulated figures that --save-runs writes and
// --load-runs reads.
#include "validate/saved_runs.h"

#include <gtest/gtest.h>

#include <sstream>

#include "arch/error.h"

namespace warpsim::validate {
namespace {

TEST(ValidateSavedRuns, RoundTripsFiguresExactlyWithPadsAndFailures) {
  SavedRun placed;
  placed.simulated["gpc__cycles_elapsed.max"] = 123457;
  placed.simulated["lts__t_sector_hit_rate.pct"] = 100.0 / 3.0;
  SavedRun padded;
  padded.simulated["dram__bytes_read.sum"] = 37081088;
  SavedRun failed;
  failed.failure = "skipped\t(more than\n--max-instructions)";
  std::ostringstream out;
  write_saved_runs_header(out);
  write_saved_run(out, "layernorm/rows=1024,cols=8192", std::nullopt, placed);
  write_saved_run(out, "layernorm/rows=1024,cols=8192", 30, padded);
  write_saved_run(out, "gemm_mma_bf16/m=n=k=2048", std::nullopt, failed);

  std::istringstream in(out.str());
  SavedRuns runs;
  read_saved_runs(in, "runs.tsv", runs);
  ASSERT_EQ(runs.size(), 3u);
  const SavedRun& a = runs.at({"layernorm/rows=1024,cols=8192", std::nullopt});
  EXPECT_EQ(a.simulated, placed.simulated);  // exact, 1/3 included
  EXPECT_EQ(runs.at({"layernorm/rows=1024,cols=8192", 30}).simulated, padded.simulated);
  EXPECT_EQ(runs.at({"gemm_mma_bf16/m=n=k=2048", std::nullopt}).failure,
            "skipped (more than --max-instructions)");
  EXPECT_TRUE(runs.at({"gemm_mma_bf16/m=n=k=2048", std::nullopt}).simulated.empty());
}

// The message of read_saved_runs on `text`, or "" when it reads.
std::string read_error(const std::string& text) {
  std::istringstream in(text);
  SavedRuns runs;
  try {
    read_saved_runs(in, "runs.tsv", runs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ValidateSavedRuns, BadRowsNameTheFileLineAndWhatWasExpected) {
  const std::string header = "point\tpad_mb\tmetric\tvalue\n";
  EXPECT_EQ(read_error(header + "p\t-\tm\t1.5\n"), "");
  EXPECT_EQ(read_error(""), "runs.tsv:0: empty file; expected the header of warpsim validate "
                            "--save-runs");
  EXPECT_NE(read_error("point,pad,metric,value\n").find("runs.tsv:1: expected the header"),
            std::string::npos);
  EXPECT_NE(read_error(header + "p\t-\tm\n").find("runs.tsv:2: expected 4 tab-separated fields"),
            std::string::npos);
  EXPECT_NE(read_error(header + "p\t-\tm\t1\np\tx\tm\t1\n").find("runs.tsv:3: pad_mb \"x\""),
            std::string::npos);
  EXPECT_NE(read_error(header + "p\t-1\tm\t1\n").find("pad_mb \"-1\""), std::string::npos);
  EXPECT_NE(read_error(header + "p\t8\tm\t1.5e\n").find("runs.tsv:2: value \"1.5e\" of m"),
            std::string::npos);
}

}  // namespace
}  // namespace warpsim::validate
