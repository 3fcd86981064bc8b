#include "traces/ncu/details_page.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "arch/error.h"
#include "traces/ncu/csv.h"

namespace warpsim::traces::ncu {
namespace {

// Skips live-output lines before the header (a line starting with "ID").
size_t header_start(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    const std::string_view rest = text.substr(start);
    if (rest.starts_with("\"ID\",") || rest.starts_with("ID,")) return start;
    const size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return text.size();
}

}  // namespace

std::optional<Dim3> parse_ncu_dim3(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return std::nullopt;
  text = text.substr(1, text.size() - 2);
  uint32_t v[3] = {1, 1, 1};
  for (int i = 0; i < 3; ++i) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v[i]);
    if (ec != std::errc()) return std::nullopt;
    text.remove_prefix(static_cast<size_t>(end - text.data()));
    if (i < 2) {
      if (text.empty() || text.front() != ',') return std::nullopt;
      text.remove_prefix(1);
    }
  }
  if (!text.empty()) return std::nullopt;
  return Dim3{v[0], v[1], v[2]};
}

const DetailsMetric* DetailsKernel::find(std::string_view name, std::string_view section) const {
  for (const DetailsMetric& m : metrics) {
    if (m.name == name && (section.empty() || m.section == section)) return &m;
  }
  return nullptr;
}

DetailsPage parse_details_page(std::string_view text, const std::string& source) {
  const size_t start = header_start(text);
  if (start >= text.size()) {
    throw InputError(source + ": no details-page header (a line starting with \"ID\") found");
  }
  size_t skipped = 0;
  for (size_t i = 0; i < start; ++i) skipped += text[i] == '\n';
  std::vector<CsvRow> rows = parse_csv(text.substr(start), source);
  for (CsvRow& r : rows) r.line += skipped;
  std::map<std::string, size_t, std::less<>> col;
  for (size_t c = 0; c < rows.front().fields.size(); ++c) col.emplace(rows.front().fields[c], c);
  const auto need = [&](std::string_view name) {
    const auto it = col.find(name);
    if (it == col.end()) {
      throw InputError(source + ":" + std::to_string(rows.front().line) +
                       ": expected a details-page header with a column \"" + std::string(name) +
                       "\"");
    }
    return it->second;
  };
  const size_t c_id = need("ID"), c_name = need("Kernel Name"), c_section = need("Section Name");
  const size_t c_metric = need("Metric Name"), c_unit = need("Metric Unit");
  const size_t c_value = need("Metric Value");
  const auto opt = [&](std::string_view name) {
    const auto it = col.find(name);
    return it == col.end() ? std::optional<size_t>() : it->second;
  };
  const auto c_block = opt("Block Size"), c_grid = opt("Grid Size");
  const size_t needed = std::max({c_id, c_name, c_section, c_metric, c_unit, c_value}) + 1;
  const DecimalMark mark = detect_decimal_mark(rows, 1);
  DetailsPage page;
  page.source = source;
  for (size_t k = 1; k < rows.size(); ++k) {
    const CsvRow& row = rows[k];
    // Blank lines, stray text and the small tables ncu prints inside some sections (NUMA, NVLink)
    // are shorter than a record: skipped.
    if (row.fields.size() < needed) continue;
    if (page.kernels.empty() || page.kernels.back().id != row.fields[c_id]) {
      DetailsKernel kernel;
      kernel.id = row.fields[c_id];
      kernel.name = row.fields[c_name];
      if (c_block && *c_block < row.fields.size())
        kernel.block = parse_ncu_dim3(row.fields[*c_block]);
      if (c_grid && *c_grid < row.fields.size()) kernel.grid = parse_ncu_dim3(row.fields[*c_grid]);
      page.kernels.push_back(std::move(kernel));
    }
    DetailsMetric m;
    m.section = row.fields[c_section];
    m.name = row.fields[c_metric];
    m.unit = row.fields[c_unit];
    m.text = row.fields[c_value];
    m.line = row.line;
    m.value = parse_ncu_number(m.text, mark);
    const auto factor = unit_to_base_factor(m.unit);
    if (m.value && factor) *m.value *= *factor;
    page.kernels.back().metrics.push_back(std::move(m));
  }
  if (page.kernels.empty()) {
    throw InputError(source + ": expected at least one record after the details-page header");
  }
  return page;
}

}  // namespace warpsim::traces::ncu
