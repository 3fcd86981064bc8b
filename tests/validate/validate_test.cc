#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arch/error.h"
#include "validate/comparison.h"
#include "validate/reference.h"
#include "validate/report.h"
#include "validate/thresholds.h"

namespace warpsim::validate {
namespace {

std::string source_dir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir ? dir : ".";
}

TEST(ValidateReference, LoadsTheCommittedH200Reference) {
  const Reference ref = load_reference(source_dir() + "/validate/reference/h200");
  EXPECT_EQ(ref.gpu, "NVIDIA H200");
  ASSERT_GE(ref.points.size(), 40u);
  size_t calibration = 0;
  for (const auto& p : ref.points) {
    calibration += p.role == "calibration";
    EXPECT_GT(p.measured.at("gpc__cycles_elapsed.max"), 0) << p.name;
  }
  EXPECT_GT(calibration, 0u);
  EXPECT_LT(calibration, ref.points.size());
  const auto& saxpy = *std::find_if(ref.points.begin(), ref.points.end(),
                                    [](const auto& p) { return p.name == "saxpy/n=16777216"; });
  EXPECT_EQ(saxpy.kernel, "saxpy");
  EXPECT_EQ(saxpy.params, (std::vector<std::string>{"n=16777216"}));
  EXPECT_EQ(saxpy.measured.at("smsp__inst_executed.sum"), 9961472);
  // DRAM bytes come from the one-pass profiles (one_pass.tsv, 5 runs: their median), the rest
  // from raw.csv.
  EXPECT_EQ(saxpy.measured.at("dram__bytes_write.sum"), 46441472);
  EXPECT_EQ(saxpy.measured.at("dram__bytes_read.sum"), 134222592);
  EXPECT_EQ(saxpy.measured_range.at("dram__bytes_write.sum"),
            (std::pair<double, double>{46386176, 46725376}));
  // SIMT efficiency from the exact thread and warp instruction counts, not ncu's rounded ratio
  // (4.02 on its raw page).
  const auto& divergent = *std::find_if(ref.points.begin(), ref.points.end(), [](const auto& p) {
    return p.name == "divergent_8way/ctas=132";
  });
  EXPECT_DOUBLE_EQ(divergent.measured.at("smsp__thread_inst_executed_per_inst_executed.ratio"),
                   130982016.0 / 32560704.0);
}

TEST(ValidateReference, AMalformedOnePassFileNamesItsLine) {
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_bad_one_pass";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "meta.json") << "{\"gpu\": \"X\"}";
  std::ofstream(dir / "points.tsv") << "index\tname\tkernel\tcategory\trole\tparams\n"
                                    << "0\tcopy/n=1\tcopy\tstreaming\ttest\tn=1\n";
  std::ofstream(dir / "raw.csv") << "\"ID\",\"dram__bytes_write.sum\"\n\"\",\"byte\"\n\"0\",\"7\"\n";
  const auto expect_error = [&](const std::string& one_pass, const std::string& where) {
    std::ofstream(dir / "one_pass.tsv") << one_pass;
    try {
      load_reference(dir.string());
      ADD_FAILURE() << "no error for " << one_pass;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  expect_error("index\tname\tdram__bytes_write.sum\n0\tcopy/n=1\tlots\n", "one_pass.tsv:2");
  expect_error("index\tname\tdram__bytes_write.sum\n0\tcopy/n=2\t5\n", "one_pass.tsv:2");
  expect_error("id\tname\n", "one_pass.tsv:1");
  expect_error("index\tname\tdram__bytes_write.sum\n", "1 in points.tsv");
  expect_error("index\tname\tdram__bytes_write.sum:run1\n0\tcopy/n=1\tnan\n", "one_pass.tsv:2");
  std::ofstream(dir / "one_pass.tsv") << "index\tname\tdram__bytes_write.sum\n0\tcopy/n=1\t5\n";
  EXPECT_EQ(load_reference(dir.string()).points[0].measured.at("dram__bytes_write.sum"), 5);
  EXPECT_TRUE(load_reference(dir.string()).points[0].measured_range.empty());
}

TEST(ValidateReference, RepeatedOnePassRunsGiveTheirMedianAndRange) {
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_repeated_one_pass";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "meta.json") << "{\"gpu\": \"X\"}";
  std::ofstream(dir / "points.tsv") << "index\tname\tkernel\tcategory\trole\tparams\n"
                                    << "0\tcopy/n=1\tcopy\tstreaming\ttest\tn=1\n";
  std::ofstream(dir / "raw.csv") << "\"ID\",\"dram__bytes_write.sum\"\n\"\",\"byte\"\n\"0\",\"7\"\n";
  std::ofstream(dir / "one_pass.tsv")
      << "index\tname\tdram__bytes_write.sum:run1\tdram__bytes_write.sum:run2\t"
         "dram__bytes_write.sum:run3\tdram__bytes_read.sum:run1\tdram__bytes_read.sum:run2\n"
      << "0\tcopy/n=1\t30\t10\t12\t4\t8\n";
  const ReferencePoint p = load_reference(dir.string()).points[0];
  EXPECT_EQ(p.measured.at("dram__bytes_write.sum"), 12);  // median of 3
  EXPECT_EQ(p.measured.at("dram__bytes_read.sum"), 6);    // of 2: their mean
  EXPECT_EQ(p.measured_range.at("dram__bytes_write.sum"), (std::pair<double, double>{10, 30}));
  EXPECT_EQ(p.measured_range.at("dram__bytes_read.sum"), (std::pair<double, double>{4, 8}));
  EXPECT_TRUE(p.placement_range.empty());
  // Profiles with the buffers placed elsewhere give the range over placements only.
  std::ofstream(dir / "one_pass_placement.tsv")
      << "index\tname\tdram__bytes_write.sum:pad0\tdram__bytes_write.sum:pad2\n"
      << "0\tcopy/n=1\t14\t9\n";
  const ReferencePoint q = load_reference(dir.string()).points[0];
  EXPECT_EQ(q.measured.at("dram__bytes_write.sum"), 12);
  EXPECT_EQ(q.placement_range.at("dram__bytes_write.sum"), (std::pair<double, double>{9, 14}));
  EXPECT_EQ(q.placement_values.at("dram__bytes_write.sum"), (std::vector<double>{14, 9}));
  EXPECT_EQ(load_reference(dir.string()).placement_pads_mb, (std::vector<int64_t>{0, 2}));
  // Labels other than pad<MiB> give no placements to simulate, only the range.
  std::ofstream(dir / "one_pass_placement.tsv")
      << "index\tname\tdram__bytes_write.sum:pad0\tdram__bytes_write.sum:low\n"
      << "0\tcopy/n=1\t14\t9\n";
  EXPECT_TRUE(load_reference(dir.string()).placement_pads_mb.empty());
  EXPECT_EQ(load_reference(dir.string()).points[0].placement_range.at("dram__bytes_write.sum"),
            (std::pair<double, double>{9, 14}));
  std::ofstream(dir / "one_pass_placement.tsv") << "index\tname\tdram__bytes_write.sum:pad0\n"
                                                << "0\tcopy/n=2\t14\n";
  try {
    load_reference(dir.string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("one_pass_placement.tsv:2"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(dir / "one_pass_placement.tsv");
}

TEST(ValidateReference, MissingOrMalformedFilesNameTheFile) {
  EXPECT_THROW(load_reference("/nonexistent"), InputError);
  const auto dir = std::filesystem::temp_directory_path() / "warpsim_bad_reference";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "meta.json") << "{\"gpu\": \"X\"}";
  std::ofstream(dir / "points.tsv") << "index\tname\n0\tonly-two-fields\n";
  std::ofstream(dir / "raw.csv") << "\"ID\",\"Kernel Name\"\n";
  try {
    load_reference(dir.string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("points.tsv:2"), std::string::npos) << e.what();
  }
}

TEST(ValidateComparison, ErrorsAndCorrelation) {
  EXPECT_EQ(point_error(100, 110, ErrorUnit::kPercent), 10.0);
  EXPECT_EQ(point_error(100, 90, ErrorUnit::kPercent), 10.0);
  EXPECT_EQ(point_error(50, 45, ErrorUnit::kPoints), 5.0);
  EXPECT_EQ(point_error(0, 0, ErrorUnit::kPercent), 0.0);
  EXPECT_EQ(point_error(0, 3, ErrorUnit::kPercent), std::nullopt);
  EXPECT_DOUBLE_EQ(pearson({1, 2, 3}, {2, 4, 6}), 1.0);
  EXPECT_DOUBLE_EQ(pearson({1, 2, 3}, {3, 2, 1}), -1.0);
  EXPECT_EQ(pearson({1}, {1}), 0.0);
}

TEST(ValidateComparison, MeasurementsOutsideAMetricsRangeAreNotCompared) {
  const ComparedMetric* hit = find_compared_metric("lts__t_sector_hit_rate.pct");
  const ComparedMetric* dram = find_compared_metric("dram__bytes_write.sum");
  ASSERT_NE(hit, nullptr);
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(find_compared_metric("no__such_metric"), nullptr);
  EXPECT_EQ(metric_error(*hit, 203.9, 0), std::nullopt);  // ncu's over-100 % rates
  EXPECT_NEAR(metric_error(*hit, 53.7, 50).value_or(-1), 3.7, 1e-9);
  EXPECT_EQ(metric_error(*dram, 0.26e6, 0), std::nullopt);  // under 1 MB
  EXPECT_EQ(metric_error(*dram, 2e6, 1.5e6), 25.0);
  // The hit rate is compared over at least 1 MB of L2 traffic (lts__t_sectors.sum).
  ReferencePoint point;
  point.measured = {{"lts__t_sector_hit_rate.pct", 60.0}, {"lts__t_sectors.sum", 1024.0}};
  PointResult result{&point, {{"lts__t_sector_hit_rate.pct", 50.0}}, "", {}};
  EXPECT_EQ(metric_error(*hit, result), std::nullopt);
  point.measured["lts__t_sectors.sum"] = 1e6;
  EXPECT_EQ(metric_error(*hit, result), 10.0);
  point.measured.erase("lts__t_sectors.sum");
  EXPECT_EQ(metric_error(*hit, result), std::nullopt);
}

std::vector<ReferencePoint> two_points() {
  std::vector<ReferencePoint> points(2);
  points[0] = {0, "a", "copy", "streaming", "test", {}, {{"gpc__cycles_elapsed.max", 100}}, {}, {}, {}};
  points[1] = {1, "b", "copy", "streaming", "test", {}, {{"gpc__cycles_elapsed.max", 200}}, {}, {}, {}};
  return points;
}

TEST(ValidateComparison, SummariesPerGroup) {
  const auto points = two_points();
  std::vector<PointResult> results = {{&points[0], {{"gpc__cycles_elapsed.max", 110}}, "", {}},
                                      {&points[1], {{"gpc__cycles_elapsed.max", 170}}, "", {}}};
  const auto s = summarize(results, "test");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].points, 2u);
  EXPECT_DOUBLE_EQ(s[0].mean_error, 12.5);
  EXPECT_DOUBLE_EQ(s[0].worst_error, 15.0);
  EXPECT_EQ(s[0].worst_point, "b");
  EXPECT_DOUBLE_EQ(s[0].pearson_r, 1.0);
  EXPECT_TRUE(summarize(results, "calibration").empty());
  EXPECT_EQ(summarize(results, "streaming").size(), 1u);
}

TEST(ValidateThresholds, LoadCheckAndErrors) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto good = (dir / "warpsim_thresholds.textproto").string();
  std::ofstream(good) << "test { key: \"gpc__cycles_elapsed.max\" value { max_mean_error: 10 "
                         "min_pearson_r: 0.9 } }\n";
  const Thresholds t = load_thresholds(good);
  std::vector<MetricSummary> s = {{"gpc__cycles_elapsed.max", "test", 2, 12.5, 0.95, 15, "b"}};
  const auto failures = check_thresholds(t, s);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("mean error 12.5 > 10"), std::string::npos) << failures[0];
  s[0].mean_error = 5;
  EXPECT_TRUE(check_thresholds(t, s).empty());
  EXPECT_EQ(check_thresholds(t, {}).size(), 1u);  // a threshold with no points fails
  const auto bad = (dir / "warpsim_bad_thresholds.textproto").string();
  std::ofstream(bad) << "test {\n  key: \"x\"\n  value { max_mean_eror: 1 }\n}\n";
  try {
    load_thresholds(bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("warpsim_bad_thresholds.textproto:3"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load_thresholds("/nonexistent.textproto"), InputError);
}

TEST(ValidateReport, MarkdownTableAndSvg) {
  const auto points = two_points();
  ValidationRun run;
  run.gpu = "NVIDIA H200";
  run.arch = "H200";
  run.results = {{&points[0], {{"gpc__cycles_elapsed.max", 110}}, "", {}},
                 {&points[1], {}, "model missing", {}}};
  run.summaries = summarize_all(run.results);
  std::ostringstream md, svg, table;
  write_markdown(md, run, "scatter.svg");
  write_svg(svg, run);
  write_table(table, run);
  EXPECT_NE(md.str().find("![simulated against measured cycles](scatter.svg)"), std::string::npos);
  EXPECT_NE(md.str().find("not simulated: model missing"), std::string::npos);
  EXPECT_NE(svg.str().find("<svg"), std::string::npos);
  EXPECT_NE(svg.str().find("<title>a</title>"), std::string::npos);
  EXPECT_EQ(svg.str().find("<title>b</title>"), std::string::npos);
  EXPECT_NE(table.str().find("10.0%"), std::string::npos) << table.str();
}

TEST(ValidateReport, DramTableShowsTheRangeOverPlacements) {
  auto points = two_points();
  points[0].measured["dram__bytes_read.sum"] = 10e6;
  points[0].placement_range["dram__bytes_read.sum"] = {9e6, 12e6};
  points[1].measured["dram__bytes_read.sum"] = 10e6;
  points[1].placement_range["dram__bytes_read.sum"] = {9e6, 12e6};
  ValidationRun run;
  run.gpu = "NVIDIA H200";
  run.arch = "H200";
  // a: 24 % over the median, 3.3 % over the greatest placement; b: inside the range.
  run.results = {{&points[0], {{"gpc__cycles_elapsed.max", 110}, {"dram__bytes_read.sum", 12.4e6}},
                  "", {}},
                 {&points[1], {{"gpc__cycles_elapsed.max", 200}, {"dram__bytes_read.sum", 9.5e6}},
                  "", {}}};
  run.summaries = summarize_all(run.results);
  std::ostringstream md;
  write_markdown(md, run, "scatter.svg");
  EXPECT_NE(md.str().find("| 10.00 | 12.40 | 24.0% | 9.00-12.00 (+3.3%) |"), std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| 10.00 | 9.50 | 5.0% | 9.00-12.00 (in) |"), std::string::npos);
  EXPECT_NE(md.str().find("Within 5 % of the measured median: 1 of 2 compared figures. Within 5 % "
                          "of the range over placements: 2 of 2."),
            std::string::npos);
  std::ostringstream table;
  write_table(table, run);
  EXPECT_NE(table.str().find("DRAM bytes: Within 5 % of the measured median: 1 of 2"),
            std::string::npos)
      << table.str();
}

TEST(ValidateComparison, PlacementSensitivePointsMoveByOverFivePercent) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_EQ(median({}), 0);
  ReferencePoint p;
  p.placement_values["dram__bytes_write.sum"] = {10e6, 10.4e6, 10.2e6};  // 3.9 %
  EXPECT_FALSE(placement_sensitive(p));
  p.placement_values["dram__bytes_read.sum"] = {10e6, 10.6e6, 10.2e6};  // 5.9 %
  EXPECT_TRUE(placement_sensitive(p));
  ReferencePoint small;  // under the compared 1 MB at every placement
  small.placement_values["dram__bytes_read.sum"] = {3584, 7680, 3584};
  EXPECT_FALSE(placement_sensitive(small));
}

TEST(ValidateReport, DramTableComparesMediansOverPlacements) {
  auto points = two_points();
  for (auto& p : points) {
    p.measured["dram__bytes_write.sum"] = 2e6;  // one placement's median
    p.measured["lts__t_sectors_srcunit_tex_op_write.sum"] = 1e6;
    p.placement_values["dram__bytes_write.sum"] = {2e6, 1e6, 0.6e6, 1.2e6};  // median 1.1
    p.placement_range["dram__bytes_write.sum"] = {0.6e6, 2e6};
  }
  ValidationRun run;
  run.gpu = "NVIDIA H200";
  run.arch = "H200";
  run.results = {{&points[0], {{"gpc__cycles_elapsed.max", 100}, {"dram__bytes_write.sum", 1e6}},
                  "", {}},
                 {&points[1], {{"gpc__cycles_elapsed.max", 200}, {"dram__bytes_write.sum", 1e6}},
                  "", {}}};
  // a: simulated at the four placements, median 1.13 (+2.3 %); b: not (a skipped placement).
  run.results[0].simulated_placements["dram__bytes_write.sum"] = {1e6, 1.05e6, 1.2e6, 1.3e6};
  run.results[1].simulated_placements["dram__bytes_write.sum"] = {1e6, 1.05e6, 1.2e6};
  run.summaries = summarize_all(run.results);
  std::ostringstream md;
  write_markdown(md, run, "scatter.svg");
  EXPECT_NE(md.str().find("| 2.00 | 1.00 | 50.0% | 0.60-2.00 (in); simulated 1.00-1.30, medians "
                          "1.10 / 1.12 (+2.3%) |"),
            std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| 2.00 | 1.00 | 50.0% | 0.60-2.00 (in) |"), std::string::npos);
  EXPECT_NE(md.str().find("medians within 5 %: 1 of 1; with those medians in place of the "
                          "reference's: 1 of 2."),
            std::string::npos)
      << md.str();
}

}  // namespace
}  // namespace warpsim::validate
