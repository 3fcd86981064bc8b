// The values of all reported statistics at one moment (normally the end of a kernel), split into
// Nsight Compute metrics (flat ncu names, ncu units) and warpsim's own stats (hierarchical dotted
// names). A snapshot owns its names, units and descriptions, so it outlives the registry that made
// it. Counts stay exact integers; gauges, averages and formulas are doubles, and a quantity that
// is undefined (0/0 average, a formula returning NaN) is reported as "n/a".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace warpsim::stats {

/// A counter's exact count, or a real number (gauges, averages, formulas).
using StatValue = std::variant<std::uint64_t, double>;

/// The value as a double (exact for integers up to 2^53).
double to_double(const StatValue& value);

/// True when the value is a real that is NaN or infinite, i.e. reported as "n/a".
bool is_undefined(const StatValue& value);

/// Exact text: integers in decimal, reals in the shortest form that reads back to the same double,
/// undefined values as "n/a". Used by the CSV writer.
std::string to_exact_string(const StatValue& value);

/// One reported quantity.
struct Sample {
  std::string name;         ///< ncu name or hierarchical stat name.
  StatValue value;          ///< Value when the snapshot was taken.
  std::string unit;         ///< Unit; "" for dimensionless.
  std::string description;  ///< What it measures.
};

/// Every enabled statistic of a registry at one moment.
struct Snapshot {
  std::vector<Sample> metrics;  ///< ncu-named metrics, sorted by name.
  std::vector<Sample> stats;    ///< Other stats, in natural name order (sm[2] before sm[10]).

  /// The metric or stat named `name`, or nullptr (linear search).
  const Sample* find(std::string_view name) const;
};

}  // namespace warpsim::stats
