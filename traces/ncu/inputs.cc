#include "traces/ncu/inputs.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "arch/error.h"
#include "traces/ncu/details_page.h"
#include "traces/ncu/raw_page.h"
#include "traces/ncu/report.h"
#include "traces/ncu/source_page.h"

namespace warpsim::traces::ncu {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The first line that starts a CSV page: the raw/details header ("ID",…) or a source page.
std::string_view first_page_line(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, nl - start);
    if (line.starts_with("\"ID\",") || line.starts_with("ID,") ||
        line.starts_with("\"Kernel Name\",") || line.starts_with("\"File Path\",")) {
      return line;
    }
    start = nl + 1;
  }
  return {};
}

KernelProfile profile_from_details(const DetailsKernel& k, const std::string& input) {
  KernelProfile p;
  p.input = input;
  p.name = k.name;
  if (k.grid) p.grid = *k.grid;
  if (k.block) p.block = *k.block;
  const auto value = [&](std::string_view label) -> std::optional<double> {
    const DetailsMetric* m = k.find(label);
    return m ? m->value : std::nullopt;
  };
  p.cycles = value("Elapsed Cycles");
  p.duration_ns = value("Duration");
  p.sm_hz = value("SM Frequency");
  p.warp_instructions = value("Executed Instructions").value_or(0);
  if (const auto r = value("Registers Per Thread"))
    p.registers_per_thread = static_cast<uint32_t>(*r);
  if (p.cycles) p.metrics["gpc__cycles_elapsed.max"] = *p.cycles;
  if (p.duration_ns) p.metrics["gpu__time_duration.sum"] = *p.duration_ns;
  return p;
}

// How far a listing's per-PC counters are from the profile's (0 when the profile has none):
// launches of one kernel with the same instruction counts differ in their memory counters.
double listing_distance(const KernelProfile& p, const SourceKernel& listing) {
  if (p.pcs.empty()) return 0;
  std::map<uint64_t, const PcProfile*> by_offset;
  for (const PcProfile& e : p.pcs) by_offset[e.offset] = &e;
  const uint64_t base = listing.base_address();
  double distance = 0;
  for (const SourceRow& row : listing.rows) {
    const auto it = by_offset.find(row.address - base);
    if (it == by_offset.end()) continue;
    const PcProfile& e = *it->second;
    const auto diff = [&](std::string_view column, double measured) {
      const auto v = listing.number(row, column);
      if (v) distance += std::abs(*v - measured);
    };
    diff("L2 Theoretical Sectors Global", e.l2_sectors);
    diff("L1 Tag Requests Global", e.l1_tag_requests);
    diff("Thread Instructions Executed", e.thread_insts);
    diff("Predicated-On Thread Instructions Executed", e.pred_on_threads);
  }
  return distance;
}

void attach_source_page(std::vector<KernelProfile>& profiles, const SourcePage& page) {
  size_t attached = 0;
  // Per kernel name, the page position of the listing used last: of equally close listings
  // (ncu prints some twice), the next one in file order is taken.
  std::map<std::string, size_t> last_used;
  for (KernelProfile& p : profiles) {
    if (p.has_listing()) continue;
    double executed = 0;
    for (const PcProfile& e : p.pcs) executed += e.warp_insts;
    if (p.pcs.empty()) executed = p.warp_instructions;
    const auto candidates = find_listings(page, p.name, executed);
    if (candidates.empty()) continue;
    const SourceKernel* best = nullptr;
    double best_distance = 0;
    bool best_after = false;
    const auto last = last_used.find(p.name);
    for (const SourceKernel* k : candidates) {
      const double d = listing_distance(p, *k);
      const bool after = last == last_used.end() || k > &page.kernels[last->second];
      if (best == nullptr || d < best_distance || (d == best_distance && after && !best_after)) {
        best = k;
        best_distance = d;
        best_after = after;
      }
    }
    last_used[p.name] = static_cast<size_t>(best - page.kernels.data());
    attach_listing(p, *best);
    ++attached;
  }
  if (attached == 0) {
    throw InputError(page.source +
                     ": its listings match none of the kernels read before it (by "
                     "name and executed instructions); give the report or raw page "
                     "first");
  }
}

}  // namespace

std::vector<KernelProfile> load_profiles(const std::vector<std::string>& paths) {
  std::vector<KernelProfile> profiles;
  for (const std::string& path : paths) {
    const std::string bytes = read(path);
    if (looks_like_ncu_report(bytes)) {
      for (const ReportKernel& k : parse_ncu_report(bytes, path).kernels) {
        profiles.push_back(profile_from_report(k, path));
      }
      continue;
    }
    const std::string_view line = first_page_line(bytes);
    if (line.empty()) {
      throw InputError(path +
                       ": not an Nsight Compute report (.ncu-rep) or CSV export (expected "
                       "a raw or details page header starting with \"ID\", or a source "
                       "page starting with \"Kernel Name\")");
    }
    if (line.starts_with("\"Kernel Name\"") || line.starts_with("\"File Path\"")) {
      attach_source_page(profiles, parse_source_page(bytes, path));
      continue;
    }
    if (line.find("\"Metric Name\"") != std::string_view::npos) {
      for (const DetailsKernel& k : parse_details_page(bytes, path).kernels) {
        profiles.push_back(profile_from_details(k, path));
      }
      continue;
    }
    const RawPage page = parse_raw_page(bytes, path);
    for (const RawRecord& r : page.records) profiles.push_back(profile_from_raw(r, path));
  }
  return profiles;
}

}  // namespace warpsim::traces::ncu
