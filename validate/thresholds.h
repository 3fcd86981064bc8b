// Loading the accuracy thresholds (validate/thresholds.textproto, protobuf text format) and
// checking a run's summaries against them.
#pragma once

#include <string>
#include <vector>

#include "validate/comparison.h"
#include "validate/thresholds.pb.h"

namespace warpsim::validate {

/// Parses `path`; throws InputError naming the file and line on a syntax error or an unknown
/// field, and when the file cannot be read.
Thresholds load_thresholds(const std::string& path);

/// One line per threshold a summary misses ("test gpc__cycles_elapsed.max: mean error 31.2 >
/// 25"); a metric with a threshold but no summary is a failure too.
std::vector<std::string> check_thresholds(const Thresholds& thresholds,
                                          const std::vector<MetricSummary>& summaries);

}  // namespace warpsim::validate
