#include "traces/ncu/csv.h"

#include <cctype>
#include <charconv>

#include "arch/error.h"

namespace warpsim::traces::ncu {

std::vector<CsvRow> parse_csv(std::string_view text, const std::string& source) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false;
  bool field_started = false;
  size_t line = 1;
  size_t quote_line = 0;
  row.line = 1;
  const auto end_field = [&] {
    row.fields.push_back(std::move(field));
    field.clear();
    field_started = false;
  };
  const auto end_row = [&] {
    if (field_started || !row.fields.empty()) end_field();
    if (!row.fields.empty()) rows.push_back(std::move(row));
    row = CsvRow{};
    row.line = line + 1;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    switch (c) {
      case '"':
        quoted = true;
        field_started = true;
        quote_line = line;
        break;
      case ',':
        end_field();
        field_started = true;
        break;
      case '\r':
        break;
      case '\n':
        end_row();
        ++line;
        break;
      default:
        field += c;
        field_started = true;
    }
  }
  if (quoted) {
    throw InputError(source + ":" + std::to_string(quote_line) +
                     ": a quoted field is never closed (expected a closing '\"')");
  }
  end_row();
  return rows;
}

std::optional<double> parse_ncu_number(std::string_view text) {
  std::string digits;
  digits.reserve(text.size());
  for (char c : text) {
    if (c == ',') continue;
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    digits += c;
  }
  if (digits.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return v;
}

}  // namespace warpsim::traces::ncu
