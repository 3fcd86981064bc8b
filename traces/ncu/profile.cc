#include "traces/ncu/profile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

#include "arch/error.h"
#include "traces/ncu/details_page.h"
#include "traces/ncu/raw_page.h"
#include "traces/ncu/report.h"
#include "traces/ncu/source_page.h"

namespace warpsim::traces::ncu {
namespace {

// The stall reasons ncu names (NCU.md), as in
// smsp__average_warps_issue_stalled_<r>_per_issue_active.
constexpr const char* kStallReasons[] = {"barrier",
                                         "branch_resolving",
                                         "dispatch_stall",
                                         "drain",
                                         "gmma",
                                         "imc_miss",
                                         "lg_throttle",
                                         "long_scoreboard",
                                         "math_pipe_throttle",
                                         "membar",
                                         "mio_throttle",
                                         "misc",
                                         "no_instruction",
                                         "not_selected",
                                         "selected",
                                         "short_scoreboard",
                                         "sleeping",
                                         "tex_throttle",
                                         "wait"};

// What the builders need from an input, whatever its format.
struct Input {
  std::function<std::optional<double>(std::string_view)> number;
  std::function<std::optional<std::string>(std::string_view)> text;
  // Instances of a metric: key text (a PC as decimal or hex, or an opcode) and value.
  std::function<std::vector<std::pair<std::string, double>>(std::string_view)> instances;
};

std::optional<uint64_t> parse_key(std::string_view key) {
  uint64_t v = 0;
  int base = 10;
  if (key.starts_with("0x")) {
    key.remove_prefix(2);
    base = 16;
  }
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), v, base);
  if (ec != std::errc() || end != key.data() + key.size() || key.empty()) return std::nullopt;
  return v;
}

std::map<uint64_t, double> by_pc(const Input& in, std::string_view metric) {
  std::map<uint64_t, double> out;
  for (const auto& [key, value] : in.instances(metric)) {
    if (const auto pc = parse_key(key)) out[*pc] = value;
  }
  return out;
}

uint32_t as_u32(std::optional<double> v) {
  if (!v || !(*v >= 0) || *v > 4e9) return 0;
  return static_cast<uint32_t>(std::llround(*v));
}

void fill_common(KernelProfile& p, const Input& in) {
  const auto m = [&](std::string_view name) { return p.metric(name); };
  p.registers_per_thread = as_u32(m("launch__registers_per_thread"));
  p.static_shared_bytes = as_u32(m("launch__shared_mem_per_block_static"));
  p.dynamic_shared_bytes = as_u32(m("launch__shared_mem_per_block_dynamic"));
  if (const auto gpu = in.text("device__attribute_display_name")) p.source_gpu = *gpu;
  if (p.sm_version == 0) {
    const auto major = m("device__attribute_compute_capability_major");
    const auto minor = m("device__attribute_compute_capability_minor");
    if (major && minor) p.sm_version = as_u32(*major * 10 + *minor);
  }
  p.cycles = m("gpc__cycles_elapsed.max");
  p.duration_ns = m("gpu__time_duration.sum");
  p.sm_hz = m("gpc__cycles_elapsed.avg.per_second");
  p.warp_instructions = m("smsp__inst_executed.sum").value_or(0);
  p.simt_efficiency = m("smsp__thread_inst_executed_per_inst_executed.ratio").value_or(32);
  const auto ratio = [&](std::string_view num, std::string_view den) {
    const auto a = m(num), b = m(den);
    return a && b && *b > 0 ? *a / *b : 0.0;
  };
  p.global_load_sectors_per_request = ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  p.global_store_sectors_per_request = ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                             "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  p.l1_hit_rate_pct = m("l1tex__t_sector_hit_rate.pct");
  p.l2_hit_rate_pct = m("lts__t_sector_hit_rate.pct");
  p.dram_read_bytes = m("dram__bytes_read.sum").value_or(0);
  p.dram_write_bytes = m("dram__bytes_write.sum").value_or(0);
  p.shared_bank_conflicts =
      m("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum").value_or(0) +
      m("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum").value_or(0);
  for (const char* r : kStallReasons) {
    const auto v =
        m(std::string("smsp__average_warps_issue_stalled_") + r + "_per_issue_active.ratio");
    if (v) p.stalls[r] = *v;
  }
  for (const auto& [op, n] : in.instances("sass__inst_executed_per_opcode")) p.opcode_mix[op] = n;
  for (const auto& [op, n] : in.instances("sass__inst_executed_per_opcode_with_modifier_all")) {
    p.opcode_mix_full[op] = n;
  }

  // Per PC: executed counts and the memory counters ncu derives from the addresses.
  const auto executed = by_pc(in, "inst_executed");
  if (executed.empty()) return;
  const auto threads = by_pc(in, "thread_inst_executed");
  const auto pred_on = by_pc(in, "thread_inst_executed_true");
  const auto type = by_pc(in, "memory_type");
  const auto access = by_pc(in, "memory_access_type");
  const auto size = by_pc(in, "memory_access_size_type");
  const auto sectors = by_pc(in, "memory_l2_theoretical_sectors_global");
  const auto sectors_ideal = by_pc(in, "memory_l2_theoretical_sectors_global_ideal");
  const auto tags = by_pc(in, "memory_l1_tag_requests_global");
  const auto wavefronts = by_pc(in, "memory_l1_wavefronts_shared");
  const auto wavefronts_ideal = by_pc(in, "memory_l1_wavefronts_shared_ideal");
  uint64_t base = executed.begin()->first;
  if (const auto pcs = in.instances("launch__function_pcs"); !pcs.empty()) {
    base = std::min(base, static_cast<uint64_t>(pcs.front().second));
  }
  const auto get = [](const std::map<uint64_t, double>& from, uint64_t pc) {
    const auto it = from.find(pc);
    return it == from.end() ? 0.0 : it->second;
  };
  for (const auto& [pc, n] : executed) {
    PcProfile e;
    e.offset = pc - base;
    e.warp_insts = n;
    e.thread_insts = get(threads, pc);
    e.pred_on_threads = pred_on.empty() ? e.thread_insts : get(pred_on, pc);
    const auto t = static_cast<uint64_t>(get(type, pc));
    e.space = t == 0    ? PcSpace::kNone
              : t == 4  ? PcSpace::kGlobal
              : t == 16 ? PcSpace::kShared
              : t == 8  ? PcSpace::kLocal
                        : PcSpace::kOther;
    e.is_store = static_cast<uint64_t>(get(access, pc)) == 4;
    e.access_bits = as_u32(get(size, pc));
    e.l2_sectors = get(sectors, pc);
    e.l2_sectors_ideal = get(sectors_ideal, pc);
    e.l1_tag_requests = get(tags, pc);
    e.shared_wavefronts = get(wavefronts, pc);
    e.shared_wavefronts_ideal = get(wavefronts_ideal, pc);
    p.pcs.push_back(std::move(e));
  }
}

void finish(KernelProfile& p) {
  double requests = 0, wavefronts = 0;
  for (const PcProfile& e : p.pcs) {
    if (e.space != PcSpace::kShared) continue;
    requests += e.warp_insts;
    wavefronts += e.shared_wavefronts;
  }
  if (requests > 0) p.shared_wavefronts_per_request = wavefronts / requests;
}

}  // namespace

std::optional<double> KernelProfile::metric(std::string_view name) const {
  const auto it = metrics.find(name);
  return it == metrics.end() ? std::nullopt : std::optional<double>(it->second);
}

uint64_t KernelProfile::warps() const { return grid.volume() * ((block.volume() + 31) / 32); }

bool KernelProfile::has_listing() const {
  return !pcs.empty() &&
         std::all_of(pcs.begin(), pcs.end(), [](const PcProfile& e) { return !e.opcode.empty(); });
}

KernelProfile profile_from_report(const ReportKernel& kernel, const std::string& input) {
  KernelProfile p;
  p.name = ncu_display_name(kernel.demangled_name);
  p.mangled_name = kernel.mangled_name;
  p.input = input;
  p.grid = kernel.grid;
  p.block = kernel.block;
  p.sm_version = kernel.sm_version;
  for (const auto& [name, metric] : kernel.metrics) {
    if (const auto v = metric.value.as_double()) p.metrics.emplace(name, *v);
  }
  Input in;
  in.number = [&](std::string_view n) { return kernel.number(n); };
  in.text = [&](std::string_view n) -> std::optional<std::string> {
    const ReportMetric* m = kernel.metric(n);
    if (m == nullptr) return std::nullopt;
    if (m->value.kind == ReportValue::Kind::kString && !m->value.text.empty()) return m->value.text;
    for (const MetricInstance& i : m->instances) {
      if (i.value.kind == ReportValue::Kind::kString) return i.value.text;
    }
    return std::nullopt;
  };
  in.instances = [&](std::string_view n) {
    std::vector<std::pair<std::string, double>> out;
    const ReportMetric* m = kernel.metric(n);
    if (m == nullptr) return out;
    for (const MetricInstance& i : m->instances) {
      const auto v = i.value.as_double();
      if (v) out.emplace_back(i.key.to_string(), *v);
    }
    return out;
  };
  fill_common(p, in);
  finish(p);
  return p;
}

KernelProfile profile_from_raw(const RawRecord& record, const std::string& input) {
  KernelProfile p;
  p.input = input;
  p.name = std::string(record.text("Kernel Name").value_or(""));
  const std::string where = input + ":" + std::to_string(record.line);
  const auto dim = [&](std::string_view column) {
    const auto t = record.text(column);
    const auto d = t ? parse_ncu_dim3(*t) : std::nullopt;
    if (!d) {
      throw InputError(where + ": column \"" + std::string(column) +
                       "\" should hold a size like \"(256, 1, 1)\"");
    }
    return *d;
  };
  p.grid = dim("Grid Size");
  p.block = dim("Block Size");
  if (const auto cc = record.number("CC")) p.sm_version = as_u32(*cc * 10);
  for (const auto& [column, text] : record.values) {
    if (const auto v = record.number(column)) p.metrics.emplace(column, *v);
  }
  Input in;
  in.number = [&](std::string_view n) { return record.number(n); };
  in.text = [&](std::string_view n) -> std::optional<std::string> {
    const auto t = record.text(n);
    if (!t || t->empty()) return std::nullopt;
    return std::string(*t);
  };
  in.instances = [&](std::string_view n) {
    std::vector<std::pair<std::string, double>> out;
    const auto v = record.instanced(n);
    if (!v) return out;
    for (const auto& [key, value] : v->instances) {
      if (value) out.emplace_back(key, *value);
    }
    return out;
  };
  fill_common(p, in);
  finish(p);
  return p;
}

double PcProfile::samples_of(std::string_view name) const {
  for (const auto& [column, value] : samples) {
    if (column == name) return value;
  }
  return 0;
}

void attach_listing(KernelProfile& p, const SourceKernel& listing) {
  const uint64_t base = listing.base_address();
  std::map<uint64_t, const PcProfile*> measured;
  for (const PcProfile& e : p.pcs) measured[e.offset] = &e;
  std::vector<PcProfile> pcs;
  for (const SourceRow& row : listing.rows) {
    PcProfile e;
    e.offset = row.address - base;
    e.sass = row.sass;
    std::string_view text = e.sass;
    if (text.starts_with("@")) text.remove_prefix(std::min(text.size(), text.find(' ') + 1));
    while (text.starts_with(" ")) text.remove_prefix(1);
    e.opcode = std::string(text.substr(0, text.find(' ')));
    const auto it = measured.find(e.offset);
    const PcProfile* from_report = it == measured.end() ? nullptr : it->second;
    const auto num = [&](std::string_view column) {
      return listing.number(row, column).value_or(0);
    };
    // A counter the page lacks keeps the report's per-PC value, when the report has one.
    const auto num_or = [&](std::string_view column, double PcProfile::*field) {
      const auto v = listing.number(row, column);
      if (v) return *v;
      return from_report != nullptr ? from_report->*field : 0.0;
    };
    e.warp_insts = num("Instructions Executed");
    e.thread_insts = num("Thread Instructions Executed");
    e.pred_on_threads = num("Predicated-On Thread Instructions Executed");
    const std::string_view space = listing.text(row, "Address Space").value_or("-");
    e.space = space.starts_with("Global")     ? PcSpace::kGlobal
              : space.starts_with("Shared")   ? PcSpace::kShared
              : space.starts_with("Local")    ? PcSpace::kLocal
              : space == "-" || space.empty() ? PcSpace::kNone
                                              : PcSpace::kOther;
    e.is_store = listing.text(row, "Access Operation").value_or("").starts_with("Store");
    e.access_bits = as_u32(listing.number(row, "Access Size"));
    e.l2_sectors = num_or("L2 Theoretical Sectors Global", &PcProfile::l2_sectors);
    e.l2_sectors_ideal = num_or("L2 Theoretical Sectors Global Ideal", &PcProfile::l2_sectors_ideal);
    e.l1_tag_requests = num_or("L1 Tag Requests Global", &PcProfile::l1_tag_requests);
    e.shared_wavefronts = num_or("L1 Wavefronts Shared", &PcProfile::shared_wavefronts);
    e.shared_wavefronts_ideal =
        num_or("L1 Wavefronts Shared Ideal", &PcProfile::shared_wavefronts_ideal);
    e.shared_conflict_ways = num_or("L1 Conflicts Shared N-Way", &PcProfile::shared_conflict_ways);
    if (listing.columns) {
      for (const auto& [column, index] : *listing.columns) {
        (void)index;
        if (!column.starts_with("stall_") || column.find('(') != std::string::npos) continue;
        e.samples.emplace_back(column.substr(6), num(column));
      }
    }
    if (from_report != nullptr && from_report->warp_insts != e.warp_insts) {
      throw InputError(listing.name + " (source page line " + std::to_string(row.line) +
                       "): " + std::to_string(e.warp_insts) + " executed instructions at offset " +
                       std::to_string(e.offset) + ", the profile has " +
                       std::to_string(from_report->warp_insts));
    }
    pcs.push_back(std::move(e));
  }
  p.pcs = std::move(pcs);
  finish(p);
}

}  // namespace warpsim::traces::ncu
