#include "sim/stats/text_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/stats/ncu_catalogue.h"

namespace warpsim::stats {
namespace {

struct Row {
  std::string label;
  std::string unit;
  std::string value;
};

// Inserts thousands separators into the leading run of digits of `number` (after any sign).
std::string group_thousands(std::string number) {
  std::size_t begin = number.find_first_of("0123456789");
  if (begin == std::string::npos) return number;
  std::size_t end = begin;
  while (end < number.size() && number[end] >= '0' && number[end] <= '9') ++end;
  for (std::size_t pos = end; pos > begin + 3; pos -= 3) number.insert(pos - 3, 1, ',');
  return number;
}

void print_table(std::ostream& out, std::string_view title, const std::vector<Row>& rows) {
  if (rows.empty()) return;
  std::size_t w_label = std::string_view("Metric Name").size();
  std::size_t w_unit = std::string_view("Metric Unit").size();
  std::size_t w_value = std::string_view("Metric Value").size();
  for (const Row& row : rows) {
    w_label = std::max(w_label, row.label.size());
    w_unit = std::max(w_unit, row.unit.size());
    w_value = std::max(w_value, row.value.size());
  }
  const std::string rule = "    " + std::string(w_label, '-') + ' ' + std::string(w_unit, '-') +
                           ' ' + std::string(w_value, '-') + '\n';
  auto line = [&](std::string_view label, std::string_view unit, std::string_view value) {
    out << "    " << label << std::string(w_label - label.size(), ' ') << ' ' << unit
        << std::string(w_unit - unit.size(), ' ') << ' ' << std::string(w_value - value.size(), ' ')
        << value << '\n';
  };
  out << "    Section: " << title << '\n' << rule;
  line("Metric Name", "Metric Unit", "Metric Value");
  out << rule;
  for (const Row& row : rows) line(row.label, row.unit, row.value);
  out << rule << '\n';
}

std::string dims(const std::array<std::uint32_t, 3>& d) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
         ")";
}

void write_kernel(const KernelReport& kernel, std::ostream& out) {
  out << "  " << kernel.name << ' ' << dims(kernel.grid) << 'x' << dims(kernel.block) << "\n";
  std::unordered_map<std::string_view, const Sample*> by_name;
  for (const Sample& sample : kernel.snapshot.metrics) by_name.emplace(sample.name, &sample);
  std::vector<Row> other;
  for (Section section : all_sections()) {
    std::vector<Row> rows;
    for (const NcuMetric& metric : ncu_catalogue()) {
      if (metric.section != section) continue;
      auto it = by_name.find(metric.name);
      if (it == by_name.end()) continue;
      rows.push_back({metric.label, it->second->unit, format_for_reading(it->second->value)});
    }
    print_table(out, section_title(section), rows);
  }
  for (const Sample& sample : kernel.snapshot.metrics) {
    if (find_ncu_metric(sample.name) == nullptr) {
      other.push_back({sample.name, sample.unit, format_for_reading(sample.value)});
    }
  }
  for (const Sample& sample : kernel.snapshot.stats) {
    other.push_back({sample.name, sample.unit, format_for_reading(sample.value)});
  }
  print_table(out, "Other Statistics", other);
}

}  // namespace

std::string format_for_reading(const StatValue& value) {
  if (is_undefined(value)) return "n/a";
  if (const auto* integer = std::get_if<std::uint64_t>(&value)) {
    return group_thousands(std::to_string(*integer));
  }
  const double real = std::get<double>(value);
  char buffer[64];
  if ((real != 0 && std::fabs(real) < 0.01) || std::fabs(real) >= 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.3g", real);
    return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%.2f", real);
  return group_thousands(buffer);
}

void write_text(const RunReport& report, std::ostream& out) {
  out << "warpsim " << report.warpsim_version << ", arch " << report.arch_name << "\n\n";
  for (const KernelReport& kernel : report.kernels) write_kernel(kernel, out);
  const SimulationInfo& sim = report.simulation;
  print_table(
      out, "Simulation",
      {{"Wall Time", "s", format_for_reading(sim.wall_seconds)},
       {"Warp Instructions", "inst", format_for_reading(sim.warp_instructions)},
       {"Simulation Rate", "inst/s", format_for_reading(sim.warp_instructions_per_second())},
       {"Threads", "", format_for_reading(std::uint64_t{sim.threads})}});
}

}  // namespace warpsim::stats
