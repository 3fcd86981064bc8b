#include "sim/stats/stat_name.h"

#include <string>

#include "arch/error.h"

namespace warpsim::stats {
namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

[[noreturn]] void bad_name(std::string_view name, std::string_view why) {
  throw InternalError("stat name '" + std::string(name) + "': " + std::string(why));
}

// Parses one segment such as "sm[12]" or "l1"; `name` is the whole name, for messages.
NameSegment parse_segment(std::string_view segment, std::string_view name) {
  if (segment.empty()) bad_name(name, "empty level (expected identifier between dots)");
  if (!is_ident_start(segment.front())) {
    bad_name(name, "level '" + std::string(segment) + "' must start with a letter or '_'");
  }
  std::size_t i = 0;
  while (i < segment.size() && is_ident_char(segment[i])) ++i;
  NameSegment out{segment.substr(0, i), std::nullopt};
  if (i == segment.size()) return out;
  if (segment[i] != '[' || segment.back() != ']') {
    bad_name(name, "level '" + std::string(segment) + "' has a character other than [A-Za-z0-9_]");
  }
  std::string_view digits = segment.substr(i + 1, segment.size() - i - 2);
  if (digits.empty() || digits.size() > 19) {
    bad_name(name, "index of '" + std::string(segment) + "' must be 1 to 19 digits");
  }
  std::uint64_t value = 0;
  for (char c : digits) {
    if (!is_digit(c)) bad_name(name, "index of '" + std::string(segment) + "' is not a number");
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (digits.size() > 1 && digits.front() == '0') {
    bad_name(name, "index of '" + std::string(segment) + "' has a leading zero");
  }
  out.index = value;
  return out;
}

}  // namespace

bool is_ncu_name(std::string_view name) { return name.find("__") != std::string_view::npos; }

std::vector<NameSegment> parse_stat_name(std::string_view name) {
  if (name.empty()) bad_name(name, "empty name");
  if (is_ncu_name(name)) bad_name(name, "'__' is reserved for Nsight Compute metric names");
  std::vector<NameSegment> segments;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = name.find('.', start);
    std::string_view segment =
        name.substr(start, dot == std::string_view::npos ? dot : dot - start);
    segments.push_back(parse_segment(segment, name));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return segments;
}

bool matches_pattern(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern.front() == '*') {
    const bool any_depth = pattern.size() > 1 && pattern[1] == '*';
    std::string_view rest = pattern.substr(any_depth ? 2 : 1);
    for (std::size_t k = 0; k <= name.size(); ++k) {
      if (matches_pattern(rest, name.substr(k))) return true;
      if (k < name.size() && name[k] == '.' && !any_depth) return false;
    }
    return false;
  }
  std::size_t n = 0;  // match the literal run up to the next '*' without recursing
  while (n < pattern.size() && pattern[n] != '*') ++n;
  if (name.substr(0, n) != pattern.substr(0, n)) return false;
  return matches_pattern(pattern.substr(n), name.substr(n));
}

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::size_t ie = i;
      std::size_t je = j;
      while (ie < a.size() && is_digit(a[ie])) ++ie;
      while (je < b.size() && is_digit(b[je])) ++je;
      std::string_view da = a.substr(i, ie - i);
      std::string_view db = b.substr(j, je - j);
      while (da.size() > 1 && da.front() == '0') da.remove_prefix(1);
      while (db.size() > 1 && db.front() == '0') db.remove_prefix(1);
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if ((a.size() - i) != (b.size() - j)) return (a.size() - i) < (b.size() - j);
  return a < b;  // equal as numbers ("01" vs "1"): fall back to bytes for a strict order
}

}  // namespace warpsim::stats
