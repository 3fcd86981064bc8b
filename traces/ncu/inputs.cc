#include "traces/ncu/inputs.h"

#include <algorithm>
#include <fstream>
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

void attach_source_page(std::vector<KernelProfile>& profiles, const SourcePage& page) {
  size_t attached = 0;
  for (KernelProfile& p : profiles) {
    if (p.has_listing()) continue;
    double executed = 0;
    for (const PcProfile& e : p.pcs) executed += e.warp_insts;
    if (p.pcs.empty()) executed = p.warp_instructions;
    const SourceKernel* listing = find_listing(page, p.name, executed);
    if (listing == nullptr) continue;
    attach_listing(p, *listing);
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
