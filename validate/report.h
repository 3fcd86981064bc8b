// The outputs of `warpsim validate`: a terminal table (per point, measured against simulated
// cycles and the main errors; per metric and group the mean error, Pearson r and worst point), a
// Markdown report, and an SVG scatter plot of simulated against measured cycles (log-log, one
// colour per category, the y = x line).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "validate/comparison.h"

namespace warpsim::validate {

/// Everything a report shows.
struct ValidationRun {
  std::string reference_dir;
  std::string gpu;
  std::string arch;
  std::vector<PointResult> results;
  std::vector<MetricSummary> summaries;  ///< Groups "test", "calibration" and each category.
  std::vector<std::string> threshold_failures;
};

/// Builds the summaries for the test and calibration groups and each category.
std::vector<MetricSummary> summarize_all(const std::vector<PointResult>& results);

void write_table(std::ostream& os, const ValidationRun& run);
void write_markdown(std::ostream& os, const ValidationRun& run, const std::string& svg_file);
void write_svg(std::ostream& os, const ValidationRun& run);

}  // namespace warpsim::validate
