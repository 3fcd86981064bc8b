#include "traces/ncu/raw_page.h"

#include "arch/error.h"
#include "traces/ncu/csv.h"

namespace warpsim::traces::ncu {

std::optional<std::string_view> RawRecord::text(std::string_view column) const {
  const auto it = values.find(column);
  if (it == values.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::optional<InstancedValue> RawRecord::instanced(std::string_view column) const {
  const auto t = text(column);
  if (!t) return std::nullopt;
  auto v = parse_instanced(*t, format ? format->mark : DecimalMark::kDot);
  if (!v || !format) return v;
  const auto f = format->to_base.find(column);
  if (f == format->to_base.end()) return v;
  if (v->aggregate) *v->aggregate *= f->second;
  for (auto& inst : v->instances) {
    if (inst.second) *inst.second *= f->second;
  }
  return v;
}

std::optional<double> RawRecord::number(std::string_view column) const {
  const auto t = text(column);
  if (!t) return std::nullopt;
  if (t->find('(') != std::string_view::npos) {
    if (t->starts_with("(")) return std::nullopt;  // "(256, 1, 1)" or instances only.
    const auto v = instanced(column);
    return v ? v->aggregate : std::nullopt;
  }
  auto v = parse_ncu_number(*t, format ? format->mark : DecimalMark::kDot);
  if (v && format) {
    const auto f = format->to_base.find(column);
    if (f != format->to_base.end()) *v *= f->second;
  }
  return v;
}

double RawPage::require(size_t index, std::string_view column) const {
  if (index >= records.size()) {
    throw InputError(source + ": expected at least " + std::to_string(index + 1) +
                     " records, found " + std::to_string(records.size()));
  }
  const RawRecord& r = records[index];
  const auto t = r.text(column);
  if (!t) {
    throw InputError(source + ": no column '" + std::string(column) + "' (needed for record " +
                     std::to_string(index) + ")");
  }
  const auto v = r.number(column);
  if (!v) {
    throw InputError(source + ":" + std::to_string(r.line) + ": column '" + std::string(column) +
                     "' holds '" + std::string(*t) + "', expected a number");
  }
  return *v;
}

RawPage parse_raw_page(std::string_view text, const std::string& source) {
  // Live output: skip everything before the header line (it starts with "ID").
  size_t start = 0;
  while (start < text.size()) {
    if (text.substr(start).starts_with("\"ID\",") || text.substr(start).starts_with("ID,")) break;
    const size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      start = text.size();
      break;
    }
    start = nl + 1;
  }
  if (start >= text.size()) {
    throw InputError(source + ": no raw-page header (a line starting with \"ID\") found");
  }
  size_t skipped_lines = 0;
  for (size_t i = 0; i < start; ++i) skipped_lines += text[i] == '\n';
  std::vector<CsvRow> rows = parse_csv(text.substr(start), source);
  for (CsvRow& r : rows) r.line += skipped_lines;
  RawPage page;
  page.source = source;
  page.columns = rows.front().fields;
  while (!page.columns.empty() && page.columns.back().empty()) page.columns.pop_back();
  if (page.columns.size() < 2 || page.columns[0] != "ID") {
    throw InputError(source + ":" + std::to_string(rows.front().line) +
                     ": expected a header starting with \"ID\"");
  }
  size_t first = 1;
  if (rows.size() > 1 && !rows[1].fields.empty() && rows[1].fields[0].empty()) {
    for (size_t c = 0; c < page.columns.size() && c < rows[1].fields.size(); ++c) {
      page.units[page.columns[c]] = rows[1].fields[c];
    }
    first = 2;
  }
  auto format = std::make_shared<NumberFormat>();
  format->mark = detect_decimal_mark(rows, first);
  for (const auto& [column, unit] : page.units) {
    const auto f = unit_to_base_factor(unit);
    if (f && *f != 1.0) format->to_base[column] = *f;
  }
  page.format = format;
  for (size_t k = first; k < rows.size(); ++k) {
    const CsvRow& row = rows[k];
    if (row.fields.size() == 1 && row.fields[0].empty()) continue;
    if (row.fields.size() < page.columns.size()) {
      throw InputError(source + ":" + std::to_string(row.line) + ": expected " +
                       std::to_string(page.columns.size()) + " fields, found " +
                       std::to_string(row.fields.size()));
    }
    RawRecord record;
    record.line = row.line;
    record.format = format;
    for (size_t c = 0; c < page.columns.size(); ++c) record.values[page.columns[c]] = row.fields[c];
    page.records.push_back(std::move(record));
  }
  return page;
}

}  // namespace warpsim::traces::ncu
