// The raw page of an Nsight Compute CSV export (`ncu --csv --page raw`): one record per profiled
// launch with its identification columns (ID, Kernel Name, Block Size, Grid Size, …) and one
// column per metric, found by name, never by position. Accepts the units row or its absence,
// live output where `==PROF==` lines and the program's own output precede the header, scaled
// units (converted to --print-units base), European-locale separators and instanced values
// (--print-metric-instances details). Left out here: the details and source pages.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/ncu/csv.h"

namespace warpsim::traces::ncu {

/// How a page writes its numbers: the decimal mark and, per column, the factor to base units.
struct NumberFormat {
  DecimalMark mark = DecimalMark::kDot;
  std::map<std::string, double, std::less<>> to_base;  ///< Columns whose unit is scaled.
};

/// One profiled launch.
struct RawRecord {
  size_t line = 0;                                         ///< Line of the record in the file.
  std::map<std::string, std::string, std::less<>> values;  ///< Column name → text.
  std::shared_ptr<const NumberFormat> format;  ///< The page's number format (null: plain).

  /// The text of `column`, or nullopt when the page has no such column.
  std::optional<std::string_view> text(std::string_view column) const;
  /// The numeric value of `column` in base units, or nullopt when absent, empty or "n/a". An
  /// instanced value gives its aggregate.
  std::optional<double> number(std::string_view column) const;
  /// The instances of `column` (values in base units), or nullopt when absent or malformed.
  std::optional<InstancedValue> instanced(std::string_view column) const;
};

/// A parsed raw page.
struct RawPage {
  std::string source;
  std::vector<std::string> columns;
  std::map<std::string, std::string, std::less<>>
      units;  ///< Column → unit, when a units row exists.
  std::shared_ptr<const NumberFormat> format;
  std::vector<RawRecord> records;

  /// The numeric value of `column` in record `index`; throws InputError naming the file, the
  /// record's line and the column when it is missing or not a number.
  double require(size_t index, std::string_view column) const;
};

/// Parses a raw page; `source` names the file in errors.
RawPage parse_raw_page(std::string_view text, const std::string& source);

}  // namespace warpsim::traces::ncu
