// RFC 4180 CSV as Nsight Compute writes it: quoted fields (with doubled quotes and embedded
// commas or newlines), CRLF or LF line ends, a trailing comma on some pages. Rows keep the line
// number they start on, so readers can name the line of a bad record.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::traces::ncu {

/// One parsed row and the 1-based line it starts on.
struct CsvRow {
  std::vector<std::string> fields;
  size_t line = 0;
};

/// Parses `text`; `source` names the file in errors (an unterminated quote → InputError with the
/// line it opened on).
std::vector<CsvRow> parse_csv(std::string_view text, const std::string& source);

/// A number as ncu prints it with --print-units base: "10,003.98" (thousands separators), "12",
/// "1.5e+09"; nullopt for "", "n/a" and anything else that is not a number.
std::optional<double> parse_ncu_number(std::string_view text);

}  // namespace warpsim::traces::ncu
