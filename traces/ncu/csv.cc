#include "traces/ncu/csv.h"

#include <cctype>
#include <charconv>
#include <cmath>

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

std::optional<double> parse_ncu_number(std::string_view text, DecimalMark mark) {
  const char group = mark == DecimalMark::kDot ? ',' : '.';
  const char decimal = mark == DecimalMark::kDot ? '.' : ',';
  std::string digits;
  digits.reserve(text.size());
  for (char c : text) {
    if (c == group) continue;
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    digits += c == decimal ? '.' : c;
  }
  if (digits.empty() || digits.size() > 64) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size() || std::isnan(v)) {
    return std::nullopt;
  }
  return v;
}

namespace {

// +1 for a field that reads as comma-decimal, -1 for dot-decimal, 0 when it says nothing.
int decimal_vote(std::string_view f) {
  size_t dots = 0, commas = 0, digits = 0;
  for (char c : f) {
    if (c == '.') {
      ++dots;
    } else if (c == ',') {
      ++commas;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else if (c != '-' && c != ' ') {
      return 0;
    }
  }
  if (digits == 0) return 0;
  if (dots && commas) return f.rfind(',') > f.rfind('.') ? 1 : -1;
  const char sep = dots ? '.' : ',';
  const size_t count = dots ? dots : commas;
  if (count == 0) return 0;
  const size_t after = f.size() - f.rfind(sep) - 1;
  const int decimal_is_sep = sep == ',' ? 1 : -1;
  if (count > 1) return -decimal_is_sep;  // Repeated: it groups thousands.
  return after == 3 ? 0 : decimal_is_sep;
}

// Factor of one unit word relative to its base: SI prefixes on any unit, time relative to `ns`
// (numerator) or to seconds (denominator).
std::optional<double> word_factor(std::string_view w, bool denominator) {
  struct Time {
    std::string_view a, b;
    double in_ns, per_second;  // As a numerator (base ns), as a denominator (base 1/s).
  };
  static constexpr Time kTimes[] = {{"ns", "nsecond", 1.0, 1e9},
                                    {"us", "usecond", 1e3, 1e6},
                                    {"ms", "msecond", 1e6, 1e3},
                                    {"s", "second", 1e9, 1.0}};
  for (const Time& t : kTimes) {
    if (w == t.a || w == t.b) return denominator ? t.per_second : t.in_ns;
  }
  if (w.size() >= 2 && std::islower(static_cast<unsigned char>(w[1]))) {
    switch (w[0]) {
      case 'K':
        return 1e3;
      case 'M':
        return 1e6;
      case 'G':
        return 1e9;
      case 'T':
        return 1e12;
      default:
        break;
    }
  }
  if (!w.empty() && std::isupper(static_cast<unsigned char>(w[0])) && w != "B") return std::nullopt;
  return 1.0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

DecimalMark detect_decimal_mark(const std::vector<CsvRow>& rows, size_t first_row) {
  long votes = 0;
  for (size_t r = first_row; r < rows.size(); ++r) {
    for (const std::string& f : rows[r].fields) votes += decimal_vote(f);
  }
  return votes > 0 ? DecimalMark::kComma : DecimalMark::kDot;
}

std::optional<double> unit_to_base_factor(std::string_view unit) {
  unit = trim(unit);
  const size_t slash = unit.find('/');
  const auto num = word_factor(unit.substr(0, slash), false);
  if (!num) return std::nullopt;
  if (slash == std::string_view::npos) return num;
  const auto den = word_factor(unit.substr(slash + 1), true);
  if (!den) return std::nullopt;
  return *num * *den;
}

std::optional<InstancedValue> parse_instanced(std::string_view text, DecimalMark mark) {
  InstancedValue out;
  text = trim(text);
  const size_t open = text.find('(');
  if (open == std::string_view::npos) {
    out.aggregate = parse_ncu_number(text, mark);
    return out;
  }
  if (text.back() != ')') return std::nullopt;
  out.aggregate = parse_ncu_number(trim(text.substr(0, open)), mark);
  std::string_view list = text.substr(open + 1, text.size() - open - 2);
  while (!trim(list).empty()) {
    const size_t semi = list.find(';');
    const std::string_view item = trim(list.substr(0, semi));
    list = semi == std::string_view::npos ? std::string_view() : list.substr(semi + 1);
    const size_t colon = item.rfind(':');
    if (colon == std::string_view::npos) return std::nullopt;
    out.instances.emplace_back(std::string(trim(item.substr(0, colon))),
                               parse_ncu_number(trim(item.substr(colon + 1)), mark));
  }
  return out;
}

}  // namespace warpsim::traces::ncu
