// The details page of an Nsight Compute CSV export (`ncu --csv --page details`): per profiled
// launch, the sections' labelled metrics ("Elapsed Cycles", "Duration", "L2 Hit Rate") with
// their unit and value. Reads the current header (ID … Block Size, Grid Size, Device, CC, Section
// Name, [Body Item Label,] Metric Name, Metric Unit, Metric Value, rule columns) and the
// 2020–2022 one (with "Kernel Time" and without Block/Grid/Device/CC), by column name. Values
// convert to base units (a "Duration" in us becomes ns). Left out: rule results.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/dim3.h"

namespace warpsim::traces::ncu {

/// One labelled metric of a section.
struct DetailsMetric {
  std::string section;
  std::string name;             ///< The label, e.g. "Elapsed Cycles".
  std::string unit;             ///< As printed.
  std::string text;             ///< The value as printed.
  std::optional<double> value;  ///< In base units, nullopt when not a number.
  size_t line = 0;
};

/// One profiled launch of the details page.
struct DetailsKernel {
  std::string id;
  std::string name;
  std::optional<Dim3> block;  ///< Absent in the 2020–2022 layout.
  std::optional<Dim3> grid;
  std::vector<DetailsMetric> metrics;

  /// The first metric labelled `name` (in `section` when given), or nullptr.
  const DetailsMetric* find(std::string_view name, std::string_view section = {}) const;
};

/// A parsed details page, kernels in file order.
struct DetailsPage {
  std::string source;
  std::vector<DetailsKernel> kernels;
};

/// Parses a details page; InputError names `source`, the line and the missing column or field.
DetailsPage parse_details_page(std::string_view text, const std::string& source);

/// Parses ncu's "(256, 1, 1)"; nullopt when malformed.
std::optional<Dim3> parse_ncu_dim3(std::string_view text);

}  // namespace warpsim::traces::ncu
