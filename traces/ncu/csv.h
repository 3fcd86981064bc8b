// RFC 4180 CSV as Nsight Compute writes it: quoted fields (with doubled quotes and embedded
// commas or newlines), CRLF or LF line ends, a trailing comma on some pages. Rows keep the line
// number they start on, so readers can name the line of a bad record. Also ncu's number formats:
// thousands separators, "n/a", the swapped separators of a European-locale export, scaled units
// ("Kbyte", "us", "Ghz") converted to the base units of --print-units base, and instanced values
// ("4,888 (FFMA: 4,097; BRA: 259)").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

/// Which character a page uses as the decimal mark (the other one groups thousands).
enum class DecimalMark : uint8_t { kDot, kComma };

/// A number as ncu prints it with --print-units base: "10,003.98" (thousands separators), "12",
/// "1.5e+09"; with kComma "10.003,98". Nullopt for "", "n/a" and anything else that is not a
/// number.
std::optional<double> parse_ncu_number(std::string_view text, DecimalMark mark = DecimalMark::kDot);

/// Guesses the decimal mark of a page from its numeric fields (rows from `first_row` on):
/// "1.234.567" or "3,5" vote for kComma, "1,234,567" or "3.5" for kDot; kDot when undecided.
DecimalMark detect_decimal_mark(const std::vector<CsvRow>& rows, size_t first_row);

/// The factor that converts a value in `unit` (as ncu prints scaled units: "Kbyte", "us",
/// "Gbyte/s", "Ghz", "sector/us") to --print-units base (byte, ns for durations, per second
/// for rates, hz); 1 for units without a prefix, nullopt for a prefix it does not know.
std::optional<double> unit_to_base_factor(std::string_view unit);

/// An instanced value: the aggregate and one (key, value) per instance, keys as printed
/// ("0x7f5ba37a0000" or "FFMA").
struct InstancedValue {
  std::optional<double> aggregate;
  std::vector<std::pair<std::string, std::optional<double>>> instances;
};

/// Parses "<aggregate> (<key>: <v>; <key>: <v>)"; a plain number gives no instances. Nullopt when
/// the parenthesised list is malformed.
std::optional<InstancedValue> parse_instanced(std::string_view text,
                                              DecimalMark mark = DecimalMark::kDot);

}  // namespace warpsim::traces::ncu
