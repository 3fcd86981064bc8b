// Formulas: statistics computed from other statistics when a snapshot is taken (hit rates, IPC,
// ncu's .sum/.avg/.max/.min roll-ups over instances). A formula is a plain function of a
// FormulaContext, which reads any registered stat by name and aggregates stats by name pattern.
// Nothing here runs on the simulation's hot path.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace warpsim::stats {

/// Roll-ups over instances, as ncu's metric suffixes name them.
enum class Aggregate {
  kSum,  ///< ".sum": total; 0 when no stat matches.
  kAvg,  ///< ".avg": mean over instances; undefined (NaN) when none matches.
  kMax,  ///< ".max": largest instance; undefined when none matches.
  kMin,  ///< ".min": smallest instance; undefined when none matches.
};

/// ncu's suffix for an aggregate: "sum", "avg", "max", "min".
std::string_view aggregate_suffix(Aggregate how);

/// What a formula can read while a snapshot is evaluated.
class FormulaContext {
 public:
  virtual ~FormulaContext() = default;

  /// The value of the stat named `name` (counter, gauge, formula or aggregate; disabled stats
  /// included). Throws warpsim::InternalError when there is no such stat or formulas form a cycle.
  virtual double value(std::string_view name) const = 0;

  /// Aggregates every stat whose name matches `pattern` (see matches_pattern()).
  virtual double aggregate(Aggregate how, std::string_view pattern) const = 0;

  /// Number of stats whose name matches `pattern`.
  virtual std::size_t count(std::string_view pattern) const = 0;

  double sum(std::string_view pattern) const { return aggregate(Aggregate::kSum, pattern); }
  double avg(std::string_view pattern) const { return aggregate(Aggregate::kAvg, pattern); }
  double max(std::string_view pattern) const { return aggregate(Aggregate::kMax, pattern); }
  double min(std::string_view pattern) const { return aggregate(Aggregate::kMin, pattern); }

  /// numerator / denominator, or 0 when the denominator is 0 (as ncu reports an empty hit rate).
  static double ratio(double numerator, double denominator) {
    return denominator == 0 ? 0.0 : numerator / denominator;
  }
};

/// A formula: returns the stat's value from other stats.
using Formula = std::function<double(const FormulaContext&)>;

}  // namespace warpsim::stats
