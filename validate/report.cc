#include "validate/report.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

namespace warpsim::validate {
namespace {

constexpr const char* kCycles = "gpc__cycles_elapsed.max";

std::string fmt(double v, int precision = 1) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << v;
  return s.str();
}

std::string error_text(const PointResult& r, const std::string& metric, ErrorUnit unit) {
  const auto m = r.point->measured.find(metric);
  const auto s = r.simulated.find(metric);
  if (m == r.point->measured.end() || s == r.simulated.end()) return "-";
  const ComparedMetric* compared = find_compared_metric(metric);
  const auto e = compared ? metric_error(*compared, r) : point_error(m->second, s->second, unit);
  return e ? fmt(*e) + (unit == ErrorUnit::kPercent ? "%" : "pt") : "n/a";
}

std::vector<std::string> categories(const ValidationRun& run) {
  std::set<std::string> c;
  for (const auto& r : run.results) c.insert(r.point->category);
  return {c.begin(), c.end()};
}

// Measured DRAM bytes in MB, with the GPU's own range over repeated runs when there is one.
std::string measured_mb(const ReferencePoint& p, const std::string& metric) {
  const auto m = p.measured.find(metric);
  if (m == p.measured.end()) return "-";
  std::string text = fmt(m->second / 1e6, 2);
  const auto range = p.measured_range.find(metric);
  if (range != p.measured_range.end() && m->second > 0) {
    text += " (" + fmt(100.0 * (range->second.first - m->second) / m->second) + " to +" +
            fmt(100.0 * (range->second.second - m->second) / m->second) + "%)";
  }
  return text;
}

std::string simulated_mb(const PointResult& r, const std::string& metric) {
  const auto s = r.simulated.find(metric);
  return s == r.simulated.end() ? "-" : fmt(s->second / 1e6, 2);
}

// The H200's least and greatest DRAM bytes over placements of the point's buffers, and how far
// the simulated value lies outside them ("in" when inside); empty without placements.
std::optional<double> placement_error(const PointResult& r, const std::string& metric) {
  const auto range = r.point->placement_range.find(metric);
  const auto s = r.simulated.find(metric);
  if (range == r.point->placement_range.end() || s == r.simulated.end()) return std::nullopt;
  const auto [low, high] = range->second;
  if (s->second < low) return low > 0 ? 100.0 * (s->second - low) / low : 0.0;
  if (s->second > high) return high > 0 ? 100.0 * (s->second - high) / high : 0.0;
  return 0.0;
}

// With --placements: the simulated median over the reference's placements against the H200's
// median over them, in percent; nullopt when the point was not simulated at every placement.
std::optional<double> placement_median_error(const PointResult& r, const std::string& metric) {
  const auto sim = r.simulated_placements.find(metric);
  const auto measured = r.point->placement_values.find(metric);
  if (sim == r.simulated_placements.end() || measured == r.point->placement_values.end() ||
      sim->second.size() != measured->second.size()) {
    return std::nullopt;
  }
  const double m = median(measured->second);
  if (m == 0) return std::nullopt;
  return 100.0 * (median(sim->second) - m) / m;  // signed: the text shows the direction
}

std::string signed_percent(double e) { return (e > 0 ? "+" : "") + fmt(e) + "%"; }

std::string placement_text(const PointResult& r, const std::string& metric) {
  const auto e = placement_error(r, metric);
  if (!e) return "";
  const auto range = r.point->placement_range.at(metric);
  std::string text = fmt(range.first / 1e6, 2) + "-" + fmt(range.second / 1e6, 2) + " (" +
                     (*e == 0.0 ? std::string("in") : signed_percent(*e)) + ")";
  if (const auto me = placement_median_error(r, metric)) {
    const auto& sim = r.simulated_placements.at(metric);
    const auto [low, high] = std::minmax_element(sim.begin(), sim.end());
    text += "; simulated " + fmt(*low / 1e6, 2) + "-" + fmt(*high / 1e6, 2) + ", medians " +
            fmt(median(r.point->placement_values.at(metric)) / 1e6, 2) + " / " +
            fmt(median(sim) / 1e6, 2) + " (" + signed_percent(*me) + ")";
  }
  return text;
}

// The DRAM figures compared, and how many lie within 5 % of the median and of the range over
// placements.
struct DramAgreement {
  int compared = 0, within_median = 0, with_placements = 0, within_placements = 0;
  // With --placements: figures simulated at every placement, those whose medians agree, and
  // every figure judged by its medians over placements where it has them.
  int placement_medians = 0, within_placement_medians = 0, within_either = 0;
};

DramAgreement dram_agreement(const ValidationRun& run) {
  DramAgreement a;
  for (const std::string metric : {"dram__bytes_read.sum", "dram__bytes_write.sum"}) {
    const ComparedMetric* m = find_compared_metric(metric);
    if (m == nullptr) continue;
    for (const auto& r : run.results) {
      if (!r.failure.empty()) continue;
      const auto e = metric_error(*m, r);
      if (!e) continue;
      ++a.compared;
      a.within_median += std::abs(*e) <= 5.0;
      if (const auto pe = placement_error(r, metric)) {
        ++a.with_placements;
        a.within_placements += std::abs(*pe) <= 5.0;
      }
      const auto me = placement_median_error(r, metric);
      if (me) {
        ++a.placement_medians;
        a.within_placement_medians += std::abs(*me) <= 5.0;
      }
      a.within_either += std::abs(me ? *me : *e) <= 5.0;
    }
  }
  return a;
}

std::string dram_agreement_text(const ValidationRun& run) {
  const DramAgreement a = dram_agreement(run);
  std::string text = "Within 5 % of the measured median: " + std::to_string(a.within_median) +
                     " of " + std::to_string(a.compared) + " compared figures.";
  if (a.with_placements > 0) {
    text += " Within 5 % of the range over placements: " + std::to_string(a.within_placements) +
            " of " + std::to_string(a.with_placements) + ".";
  }
  if (a.placement_medians > 0) {
    text += " Simulated at every placement (--placements; the points whose measured bytes move "
            "by over 5 % with placement): medians within 5 %: " +
            std::to_string(a.within_placement_medians) + " of " +
            std::to_string(a.placement_medians) + "; with those medians in place of the "
            "reference's: " + std::to_string(a.within_either) + " of " +
            std::to_string(a.compared) + ".";
  }
  return text;
}

// The points whose DRAM bytes are compared: measured (median of the runs, and their range),
// simulated, error, and the range over placements of the buffers; then how many lie within 5 %.
void write_dram_table(std::ostream& os, const ValidationRun& run) {
  static const std::string kRead = "dram__bytes_read.sum", kWrite = "dram__bytes_write.sum";
  const ComparedMetric* read = find_compared_metric(kRead);
  const ComparedMetric* write = find_compared_metric(kWrite);
  os << "\nDRAM bytes of the points where they are compared, in MB; measured is the median of "
        "the reference's runs, with the least and greatest run in parentheses; over placements "
        "is the least and greatest over profiles with the point's buffers at other places in "
        "memory (one_pass_placement.tsv), with how far the simulated value lies outside.\n\n"
        "| point | role | measured read | simulated read | error | read over placements | "
        "measured write | simulated write | error | write over placements |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& r : run.results) {
    if (!r.failure.empty()) continue;
    const bool reads = read != nullptr && metric_error(*read, r).has_value();
    const bool writes = write != nullptr && metric_error(*write, r).has_value();
    if (!reads && !writes) continue;
    os << "| " << r.point->name << " | " << r.point->role << " | "
       << (reads ? measured_mb(*r.point, kRead) : "") << " | "
       << (reads ? simulated_mb(r, kRead) : "") << " | "
       << (reads ? error_text(r, kRead, ErrorUnit::kPercent) : "") << " | "
       << (reads ? placement_text(r, kRead) : "") << " | "
       << (writes ? measured_mb(*r.point, kWrite) : "") << " | "
       << (writes ? simulated_mb(r, kWrite) : "") << " | "
       << (writes ? error_text(r, kWrite, ErrorUnit::kPercent) : "") << " | "
       << (writes ? placement_text(r, kWrite) : "") << " |\n";
  }
  os << "\n" << dram_agreement_text(run) << "\n";
}

}  // namespace

std::vector<MetricSummary> summarize_all(const std::vector<PointResult>& results) {
  std::vector<MetricSummary> all;
  std::set<std::string> groups = {"test", "calibration"};
  for (const auto& r : results) groups.insert(r.point->category);
  for (const std::string& g : {std::string("test"), std::string("calibration")}) {
    for (auto& s : summarize(results, g)) all.push_back(s);
    groups.erase(g);
  }
  for (const std::string& g : groups) {
    for (auto& s : summarize(results, g)) all.push_back(s);
  }
  return all;
}

void write_table(std::ostream& os, const ValidationRun& run) {
  os << std::left << std::setw(44) << "point" << std::setw(12) << "role" << std::right
     << std::setw(14) << "measured" << std::setw(14) << "simulated" << std::setw(9) << "cycles"
     << std::setw(9) << "inst" << std::setw(9) << "dram_rd" << std::setw(9) << "dram_wr"
     << std::setw(9) << "l2_hit" << std::setw(9) << "l1_hit" << "\n";
  for (const auto& r : run.results) {
    os << std::left << std::setw(44) << r.point->name << std::setw(12) << r.point->role;
    if (!r.failure.empty()) {
      os << "not simulated: " << r.failure << "\n";
      continue;
    }
    const auto m = r.point->measured.find(kCycles);
    const auto s = r.simulated.find(kCycles);
    os << std::right << std::setw(14) << (m != r.point->measured.end() ? fmt(m->second, 0) : "-")
       << std::setw(14) << (s != r.simulated.end() ? fmt(s->second, 0) : "-") << std::setw(9)
       << error_text(r, kCycles, ErrorUnit::kPercent) << std::setw(9)
       << error_text(r, "smsp__inst_executed.sum", ErrorUnit::kPercent) << std::setw(9)
       << error_text(r, "dram__bytes_read.sum", ErrorUnit::kPercent) << std::setw(9)
       << error_text(r, "dram__bytes_write.sum", ErrorUnit::kPercent) << std::setw(9)
       << error_text(r, "lts__t_sector_hit_rate.pct", ErrorUnit::kPoints) << std::setw(9)
       << error_text(r, "l1tex__t_sector_hit_rate.pct", ErrorUnit::kPoints) << "\n";
  }
  os << "\n" << std::left << std::setw(14) << "group" << std::setw(62) << "metric" << std::right
     << std::setw(7) << "points" << std::setw(10) << "mean err" << std::setw(8) << "r"
     << std::setw(10) << "worst" << "  worst point\n";
  for (const auto& s : run.summaries) {
    os << std::left << std::setw(14) << s.group << std::setw(62) << s.metric << std::right
       << std::setw(7) << s.points << std::setw(10) << fmt(s.mean_error, 2) << std::setw(8)
       << fmt(s.pearson_r, 3) << std::setw(10) << fmt(s.worst_error, 1) << "  " << s.worst_point
       << "\n";
  }
  os << "\nDRAM bytes: " << dram_agreement_text(run) << "\n";
  for (const auto& f : run.threshold_failures) os << "THRESHOLD MISSED: " << f << "\n";
}

void write_markdown(std::ostream& os, const ValidationRun& run, const std::string& svg_file) {
  os << "# warpsim validation: " << run.arch << " against " << run.gpu << "\n\n"
     << "Reference: `" << run.reference_dir << "`. Errors are percent of the measured value "
     << "(MAPE) except hit rates (percentage points).\n\n";
  if (!svg_file.empty()) os << "![simulated against measured cycles](" << svg_file << ")\n\n";
  os << "| group | metric | points | mean error | Pearson r | worst | worst point |\n"
     << "| --- | --- | ---: | ---: | ---: | ---: | --- |\n";
  for (const auto& s : run.summaries) {
    os << "| " << s.group << " | `" << s.metric << "` | " << s.points << " | "
       << fmt(s.mean_error, 2) << " | " << fmt(s.pearson_r, 3) << " | " << fmt(s.worst_error, 1)
       << " | " << s.worst_point << " |\n";
  }
  os << "\n| point | role | category | measured cycles | simulated cycles | error | DRAM read "
        "error | DRAM write error | L2 hit error | L1 hit error |\n"
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& r : run.results) {
    os << "| " << r.point->name << " | " << r.point->role << " | " << r.point->category << " | ";
    if (!r.failure.empty()) {
      os << "| | not simulated: " << r.failure << " | | | | |\n";
      continue;
    }
    const auto m = r.point->measured.find(kCycles);
    const auto s = r.simulated.find(kCycles);
    os << (m != r.point->measured.end() ? fmt(m->second, 0) : "-") << " | "
       << (s != r.simulated.end() ? fmt(s->second, 0) : "-") << " | "
       << error_text(r, kCycles, ErrorUnit::kPercent) << " | "
       << error_text(r, "dram__bytes_read.sum", ErrorUnit::kPercent) << " | "
       << error_text(r, "dram__bytes_write.sum", ErrorUnit::kPercent) << " | "
       << error_text(r, "lts__t_sector_hit_rate.pct", ErrorUnit::kPoints) << " | "
       << error_text(r, "l1tex__t_sector_hit_rate.pct", ErrorUnit::kPoints) << " |\n";
  }
  write_dram_table(os, run);
  for (const auto& f : run.threshold_failures) os << "\n**Threshold missed:** " << f << "\n";
}

void write_svg(std::ostream& os, const ValidationRun& run) {
  static constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                             "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                             "#bcbd22", "#17becf"};
  constexpr double kSize = 520, kMargin = 60;
  double lo = 1e300, hi = 0;
  for (const auto& r : run.results) {
    const auto m = r.point->measured.find(kCycles);
    const auto s = r.simulated.find(kCycles);
    if (!r.failure.empty() || m == r.point->measured.end() || s == r.simulated.end()) continue;
    lo = std::min({lo, m->second, s->second});
    hi = std::max({hi, m->second, s->second});
  }
  if (hi <= 0) lo = 1, hi = 10;
  const double l0 = std::floor(std::log10(std::max(lo, 1.0)));
  const double l1 = std::ceil(std::log10(std::max(hi, 10.0)));
  const auto pos = [&](double v, bool y) {
    const double f = (std::log10(std::max(v, 1.0)) - l0) / (l1 - l0);
    return y ? kMargin + (1 - f) * kSize : kMargin + f * kSize;
  };
  const double w = kSize + 2 * kMargin + 160;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\""
     << kSize + 2 * kMargin << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (double e = l0; e <= l1; ++e) {
    const double x = kMargin + (e - l0) / (l1 - l0) * kSize;
    const double y = kMargin + (1 - (e - l0) / (l1 - l0)) * kSize;
    os << "<line x1=\"" << x << "\" y1=\"" << kMargin << "\" x2=\"" << x << "\" y2=\""
       << kMargin + kSize << "\" stroke=\"#eee\"/>\n<line x1=\"" << kMargin << "\" y1=\"" << y
       << "\" x2=\"" << kMargin + kSize << "\" y2=\"" << y << "\" stroke=\"#eee\"/>\n"
       << "<text x=\"" << x << "\" y=\"" << kMargin + kSize + 16 << "\" text-anchor=\"middle\">1e"
       << e << "</text>\n<text x=\"" << kMargin - 6 << "\" y=\"" << y + 4
       << "\" text-anchor=\"end\">1e" << e << "</text>\n";
  }
  os << "<line x1=\"" << kMargin << "\" y1=\"" << kMargin + kSize << "\" x2=\"" << kMargin + kSize
     << "\" y2=\"" << kMargin << "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n"
     << "<text x=\"" << kMargin + kSize / 2 << "\" y=\"" << kMargin + kSize + 36
     << "\" text-anchor=\"middle\">measured gpc__cycles_elapsed.max (" << run.gpu << ")</text>\n"
     << "<text transform=\"translate(16," << kMargin + kSize / 2
     << ") rotate(-90)\" text-anchor=\"middle\">simulated (" << run.arch << ")</text>\n";
  const auto cats = categories(run);
  for (size_t c = 0; c < cats.size(); ++c) {
    const char* colour = kColours[c % 10];
    os << "<circle cx=\"" << kSize + kMargin + 30 << "\" cy=\"" << kMargin + 14 * c
       << "\" r=\"4\" fill=\"" << colour << "\"/><text x=\"" << kSize + kMargin + 40 << "\" y=\""
       << kMargin + 14 * c + 4 << "\">" << cats[c] << "</text>\n";
    for (const auto& r : run.results) {
      if (r.point->category != cats[c] || !r.failure.empty()) continue;
      const auto m = r.point->measured.find(kCycles);
      const auto s = r.simulated.find(kCycles);
      if (m == r.point->measured.end() || s == r.simulated.end()) continue;
      os << "<circle cx=\"" << pos(m->second, false) << "\" cy=\"" << pos(s->second, true)
         << "\" r=\"4\" fill=\"" << colour << "\" fill-opacity=\"0.8\"><title>" << r.point->name
         << "</title></circle>\n";
    }
  }
  os << "</svg>\n";
}

}  // namespace warpsim::validate
