// The raw page of an Nsight Compute CSV export (`ncu --csv --page raw`): one record per profiled
// launch with its identification columns (ID, Kernel Name, Block Size, Grid Size, …) and one
// column per metric, found by name, never by position. Accepts the units row or its absence,
// and live output where `==PROF==` lines and the program's own output precede the header.
// Left out here: the details and source pages, instanced values, locale-swapped separators.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::traces::ncu {

/// One profiled launch.
struct RawRecord {
  size_t line = 0;  ///< Line of the record in the file.
  std::map<std::string, std::string, std::less<>> values;  ///< Column name → text.

  /// The text of `column`, or nullopt when the page has no such column.
  std::optional<std::string_view> text(std::string_view column) const;
  /// The numeric value of `column`, or nullopt when absent, empty or "n/a".
  std::optional<double> number(std::string_view column) const;
};

/// A parsed raw page.
struct RawPage {
  std::string source;
  std::vector<std::string> columns;
  std::map<std::string, std::string, std::less<>> units;  ///< Column → unit, when a units row exists.
  std::vector<RawRecord> records;

  /// The numeric value of `column` in record `index`; throws InputError naming the file, the
  /// record's line and the column when it is missing or not a number.
  double require(size_t index, std::string_view column) const;
};

/// Parses a raw page; `source` names the file in errors.
RawPage parse_raw_page(std::string_view text, const std::string& source);

}  // namespace warpsim::traces::ncu
