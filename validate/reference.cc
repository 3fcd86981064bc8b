#include "validate/reference.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arch/error.h"
#include "traces/ncu/raw_page.h"

namespace warpsim::validate {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the reference file");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The dram__bytes_* runs of a one-pass profile file (index, name, then "metric" or
// "metric:label" columns, one row per point in points.tsv's order): per point, metric -> its
// value in each run, in column order; `labels` gets each metric's column labels.
using PointRuns = std::map<std::string, std::vector<double>>;
std::vector<PointRuns> read_one_pass_runs(const std::string& path, const Reference& ref,
                                          std::map<std::string, std::vector<std::string>>* labels) {
  std::istringstream in(read_file(path));
  std::string line;
  std::getline(in, line);
  const auto head = split(line, '\t');
  if (head.size() < 2 || head[0] != "index" || head[1] != "name") {
    throw InputError(path + ":1: expected a header starting with index, name and metric names");
  }
  for (size_t c = 2; c < head.size() && labels != nullptr; ++c) {
    if (!head[c].starts_with("dram__bytes_")) continue;
    const auto colon = head[c].find(':');
    (*labels)[head[c].substr(0, colon)].push_back(
        colon == std::string::npos ? "" : head[c].substr(colon + 1));
  }
  std::vector<PointRuns> points;
  size_t line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const auto f = split(line, '\t');
    const std::string where = path + ":" + std::to_string(line_no);
    if (f.size() != head.size()) {
      throw InputError(where + ": expected " + std::to_string(head.size()) + " tab-separated fields");
    }
    const size_t k = points.size();
    if (k >= ref.points.size() || f[1] != ref.points[k].name) {
      throw InputError(where + ": point '" + f[1] + "' is not point " + std::to_string(k) +
                       " of points.tsv");
    }
    PointRuns runs;
    for (size_t c = 2; c < head.size(); ++c) {
      if (!head[c].starts_with("dram__bytes_")) continue;
      try {
        size_t used = 0;
        const double v = std::stod(f[c], &used);
        if (used != f[c].size() || !std::isfinite(v)) throw std::invalid_argument(f[c]);
        runs[head[c].substr(0, head[c].find(':'))].push_back(v);
      } catch (const std::exception&) {
        throw InputError(where + ": " + head[c] + " '" + f[c] + "' is not a number");
      }
    }
    points.push_back(std::move(runs));
  }
  if (points.size() != ref.points.size()) {
    throw InputError(path + ": " + std::to_string(points.size()) + " points for " +
                     std::to_string(ref.points.size()) + " in points.tsv");
  }
  return points;
}

// "pad<N>" labels as N MiB each; empty unless every label has that form and every metric the
// same labels.
std::vector<int64_t> pads_of(const std::map<std::string, std::vector<std::string>>& labels) {
  std::vector<int64_t> pads;
  const std::vector<std::string>* first = nullptr;
  for (const auto& [metric, names] : labels) {
    if (first != nullptr && names != *first) return {};
    first = &names;
  }
  if (first == nullptr) return {};
  for (const std::string& label : *first) {
    int64_t mb = 0;
    if (!label.starts_with("pad")) return {};
    const char* begin = label.data() + 3;
    const char* end = label.data() + label.size();
    const auto [at, ec] = std::from_chars(begin, end, mb);
    if (ec != std::errc() || at != end || begin == end || mb < 0) return {};
    pads.push_back(mb);
  }
  return pads;
}

// DRAM bytes from the one-pass profile: the capture's replay passes add write-backs of their own
// (validate/HISTORY.md, "DRAM writes").
void apply_one_pass(const std::string& path, Reference& ref) {
  const auto points = read_one_pass_runs(path, ref, nullptr);
  for (size_t k = 0; k < points.size(); ++k) {
    for (const auto& [metric, values] : points[k]) {
      ref.points[k].measured[metric] = median(values);
      if (values.size() > 1) {
        const auto [low, high] = std::minmax_element(values.begin(), values.end());
        ref.points[k].measured_range[metric] = {*low, *high};
      }
    }
  }
}

// The same profile with each point's buffers at other places in memory
// (capture/placement_runs.sh): the least and greatest value over the placements.
void apply_placements(const std::string& path, Reference& ref) {
  std::map<std::string, std::vector<std::string>> labels;
  const auto points = read_one_pass_runs(path, ref, &labels);
  ref.placement_pads_mb = pads_of(labels);
  for (size_t k = 0; k < points.size(); ++k) {
    for (const auto& [metric, values] : points[k]) {
      const auto [low, high] = std::minmax_element(values.begin(), values.end());
      ref.points[k].placement_range[metric] = {*low, *high};
      ref.points[k].placement_values[metric] = values;
    }
  }
}

}  // namespace

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(s);
  while (std::getline(in, field, sep)) out.push_back(field);
  return out;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

Reference load_reference(const std::string& dir) {
  Reference ref;
  ref.dir = dir;
  const std::string meta = read_file(dir + "/meta.json");
  if (const auto at = meta.find("\"gpu\""); at != std::string::npos) {
    const auto q0 = meta.find('"', meta.find(':', at) + 1);
    const auto q1 = meta.find('"', q0 + 1);
    if (q0 != std::string::npos && q1 != std::string::npos) ref.gpu = meta.substr(q0 + 1, q1 - q0 - 1);
  }
  const std::string points_path = dir + "/points.tsv";
  std::istringstream points(read_file(points_path));
  std::string line;
  size_t line_no = 0;
  while (std::getline(points, line)) {
    ++line_no;
    if (line_no == 1 || line.empty()) continue;
    const auto f = split(line, '\t');
    if (f.size() < 5) {
      throw InputError(points_path + ":" + std::to_string(line_no) +
                       ": expected index, name, kernel, category, role and params separated by tabs");
    }
    ReferencePoint p;
    p.index = ref.points.size();
    p.name = f[1];
    p.kernel = f[2];
    p.category = f[3];
    p.role = f[4];
    if (p.role != "calibration" && p.role != "test") {
      throw InputError(points_path + ":" + std::to_string(line_no) + ": role '" + p.role +
                       "', expected calibration or test");
    }
    if (f.size() > 5 && !f[5].empty()) p.params = split(f[5], ';');
    ref.points.push_back(std::move(p));
  }
  const std::string raw_path = dir + "/raw.csv";
  const auto page = traces::ncu::parse_raw_page(read_file(raw_path), raw_path);
  if (page.records.size() != ref.points.size()) {
    throw InputError(raw_path + ": " + std::to_string(page.records.size()) + " records for " +
                     std::to_string(ref.points.size()) + " points in " + points_path);
  }
  for (size_t k = 0; k < ref.points.size(); ++k) {
    for (const auto& [column, text] : page.records[k].values) {
      if (column.find("__") == std::string::npos) continue;
      if (const auto v = page.records[k].number(column)) ref.points[k].measured[column] = *v;
    }
    // ncu prints the SIMT-efficiency ratio to two decimals (4.02 for 4.0227); the thread and warp
    // instruction counts it is derived from are exact, so the ratio is taken from them.
    const auto threads = page.records[k].number("thread_inst_executed");
    auto& measured = ref.points[k].measured;
    const auto warps = measured.find("smsp__inst_executed.sum");
    if (threads && warps != measured.end() && warps->second > 0) {
      measured["smsp__thread_inst_executed_per_inst_executed.ratio"] = *threads / warps->second;
    }
  }
  if (std::filesystem::exists(dir + "/one_pass.tsv")) apply_one_pass(dir + "/one_pass.tsv", ref);
  if (std::filesystem::exists(dir + "/one_pass_placement.tsv")) {
    apply_placements(dir + "/one_pass_placement.tsv", ref);
  }
  return ref;
}

}  // namespace warpsim::validate
