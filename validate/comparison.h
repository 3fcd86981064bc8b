// Comparison of simulated with measured metrics over a validation reference: per point the error
// of each metric, per metric and group of points (role, category) the mean error, the Pearson
// correlation and the worst point. Counts and times are compared in percent of the measured
// value (MAPE); rates already in percent (hit rates) in percentage points.
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "validate/reference.h"

namespace warpsim::validate {

enum class ErrorUnit { kPercent, kPoints };

/// A metric `warpsim validate` compares, and the measured values it is compared at: outside
/// [min_measured, max_measured] a measurement says more about the GPU's other traffic than about
/// the kernel (see compared_metrics()), and the point is left out of that metric's statistics.
struct ComparedMetric {
  std::string name;  ///< ncu name.
  ErrorUnit unit;
  double min_measured = -std::numeric_limits<double>::infinity();
  double max_measured = std::numeric_limits<double>::infinity();
  /// When set, the point is compared only if this measured metric reaches gate_min (a rate is
  /// compared only over enough traffic to be the kernel's).
  std::string gate_metric{};
  double gate_min = 0;
};

/// The metrics compared, in report order.
const std::vector<ComparedMetric>& compared_metrics();

/// One point's simulation outcome.
struct PointResult {
  const ReferencePoint* point = nullptr;
  std::map<std::string, double> simulated;  ///< ncu metric → value.
  std::string failure;                      ///< Non-empty when the point could not be simulated.
  /// With `warpsim validate --placements`: DRAM bytes simulated at each of the reference's
  /// placements (Reference::placement_pads_mb, in order); empty for the points not simulated so.
  std::map<std::string, std::vector<double>> simulated_placements;
};

/// Whether --placements simulates `point` at every placement: one of its DRAM figures of a
/// compared size (1 MB or more at some placement) spreads by more than kPlacementSpreadPercent
/// of its median over the placements, so that one placement's value says as much about where the
/// buffers lay as about the kernel.
inline constexpr double kPlacementSpreadPercent = 5.0;
bool placement_sensitive(const ReferencePoint& point);

/// The compared metric called `name`; nullptr when it is not compared.
const ComparedMetric* find_compared_metric(const std::string& name);

/// point_error for metric `m`, nullopt also when `measured` lies outside m's compared range.
std::optional<double> metric_error(const ComparedMetric& m, double measured, double simulated);

/// metric_error of `m` at one point, nullopt also when the point is missing the metric or fails
/// m's gate.
std::optional<double> metric_error(const ComparedMetric& m, const PointResult& r);

/// Error of `simulated` against `measured` in `unit` (percent of |measured|, or points); nullopt
/// when a percent error is undefined (measured 0 and simulated not).
std::optional<double> point_error(double measured, double simulated, ErrorUnit unit);

/// Statistics of one metric over a group of points.
struct MetricSummary {
  std::string metric;
  std::string group;  ///< "test", "calibration", or a category name.
  size_t points = 0;
  double mean_error = 0;   ///< MAPE (percent) or mean absolute points.
  double pearson_r = 0;    ///< Of simulated against measured; 0 with fewer than 2 points.
  double worst_error = 0;
  std::string worst_point;
};

/// Summaries for every compared metric over the points whose role or category equals `group`.
std::vector<MetricSummary> summarize(const std::vector<PointResult>& results,
                                     const std::string& group);

/// Pearson correlation (Eigen); 0 when fewer than 2 values or no variance.
double pearson(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace warpsim::validate
