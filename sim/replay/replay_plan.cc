#include "sim/replay/replay_plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "arch/error.h"
#include "sim/replay/access_shape.h"
#include "workloads/sass_listing.h"

namespace warpsim::replay {
namespace {

using traces::ncu::KernelProfile;
using traces::ncu::PcProfile;
using traces::ncu::PcSpace;

constexpr uint64_t kGlobalRegions = 0x7f0000000000ull;
constexpr uint64_t kRegionBytes = 1ull << 36;
constexpr uint64_t kReuseWindowBytes = 4ull << 20;
constexpr double kMinWaitSamples = 10;

traces::Isa isa_of(uint32_t sm_version) {
  if (sm_version == 0 || sm_version == 90) return traces::Isa::kSm90;
  return sm_version < 90 ? traces::Isa::kSm80 : traces::Isa::kSm100;
}

// One static instruction before per-warp scaling.
struct Draft {
  std::string mnemonic;
  std::string sass;  // Full text when a listing gave it.
  uint32_t pc = 0;
  const PcProfile* measured = nullptr;  // Null in opcode-mix mode.
  double count = 0;                     // Warp instructions over the grid.
};

bool space_matches(const traces::OpcodeInfo& info, PcSpace space, bool store) {
  using traces::MemSpace;
  const bool is_store =
      info.access == traces::AccessKind::kStore || info.access == traces::AccessKind::kReduction;
  switch (space) {
    case PcSpace::kGlobal:
      return (info.space == MemSpace::kGlobal || info.space == MemSpace::kGeneric) &&
             is_store == store;
    case PcSpace::kShared:
      return info.space == MemSpace::kShared && is_store == store;
    case PcSpace::kLocal:
      return info.space == MemSpace::kLocal && is_store == store;
    case PcSpace::kOther:
      return info.is_memory() && info.space != MemSpace::kConstant;
    case PcSpace::kNone:
      return info.space == MemSpace::kNone || info.space == MemSpace::kConstant;
  }
  return false;
}

std::string default_mnemonic(const PcProfile& e) {
  const std::string width = e.access_bits == 64 ? ".64" : e.access_bits == 128 ? ".128" : "";
  switch (e.space) {
    case PcSpace::kGlobal:
      return (e.is_store ? "STG.E" : "LDG.E") + width;
    case PcSpace::kShared:
      return (e.is_store ? "STS" : "LDS") + width;
    case PcSpace::kLocal:
      return (e.is_store ? "STL" : "LDL") + width;
    default:
      return "IMAD";
  }
}

// Assigns mnemonics to measured PCs from the per-opcode mix: largest counts first, each to the
// candidate of the right memory kind whose remaining count fits best.
void assign_mnemonics(std::vector<Draft>& drafts, const KernelProfile& p, traces::Isa isa) {
  std::map<std::string, double> remaining =
      p.opcode_mix_full.empty() ? p.opcode_mix : p.opcode_mix_full;
  std::map<std::string, traces::OpcodeInfo> infos;
  for (const auto& [m, n] : remaining) infos.emplace(m, traces::classify_opcode(isa, m));
  std::vector<Draft*> order;
  for (Draft& d : drafts) order.push_back(&d);
  std::stable_sort(order.begin(), order.end(),
                   [](const Draft* a, const Draft* b) { return a->count > b->count; });
  for (Draft* d : order) {
    const PcProfile& e = *d->measured;
    std::string best;
    double best_left = 0;
    bool best_fits = false;
    for (const auto& [m, left] : remaining) {
      if (!space_matches(infos.at(m), e.space, e.is_store)) continue;
      const bool fits = left >= d->count * (1 - 1e-9);
      const bool better = best.empty() || (fits && !best_fits) ||
                          (fits == best_fits && (fits ? left < best_left : left > best_left));
      if (better) {
        best = m;
        best_left = left;
        best_fits = fits;
      }
    }
    d->mnemonic = best.empty() ? default_mnemonic(e) : best;
    if (!best.empty()) remaining[best] -= d->count;
  }
}

// A mix from a raw page's kernel totals when it has no per-opcode counts.
std::map<std::string, double> kernel_totals_mix(const KernelProfile& p) {
  std::map<std::string, double> mix;
  double rest = p.warp_instructions;
  const auto take = [&](const char* mnemonic, double n) {
    n = std::min(n, rest);
    if (n <= 0) return;
    mix[mnemonic] += n;
    rest -= n;
  };
  const auto m = [&](std::string_view name) { return p.metric(name).value_or(0); };
  take("LDG.E", m("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
  take("STG.E", m("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"));
  take("LDS", m("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") -
                  m("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
  take("STS", m("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") -
                  m("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"));
  take("FFMA", rest / 2);
  take("IMAD", rest);
  return mix;
}

std::vector<Draft> drafts_of(const KernelProfile& p, traces::Isa isa, PlanFidelity& fidelity) {
  std::vector<Draft> drafts;
  if (!p.pcs.empty()) {
    fidelity = p.has_listing() ? PlanFidelity::kListing : PlanFidelity::kPerPc;
    for (const PcProfile& e : p.pcs) {
      if (e.warp_insts <= 0) continue;
      drafts.push_back({e.opcode, e.sass, static_cast<uint32_t>(e.offset), &e, e.warp_insts});
    }
    if (fidelity == PlanFidelity::kPerPc) assign_mnemonics(drafts, p, isa);
    return drafts;
  }
  fidelity = PlanFidelity::kOpcodeMix;
  std::map<std::string, double> mix = p.opcode_mix_full.empty() ? p.opcode_mix : p.opcode_mix_full;
  if (mix.empty()) {
    fidelity = PlanFidelity::kKernelTotals;
    mix = kernel_totals_mix(p);
  }
  // Loads first, stores last, the rest between: the usual shape of a kernel body.
  for (int pass = 0; pass < 3; ++pass) {
    for (const auto& [m, n] : mix) {
      const auto info = traces::classify_opcode(isa, m);
      const bool load = info.is_memory() && info.access == traces::AccessKind::kLoad;
      const bool store = info.is_memory() && info.access == traces::AccessKind::kStore;
      if ((pass == 0) != load || (pass == 2) != store || n <= 0) continue;
      drafts.push_back({m, "", static_cast<uint32_t>(drafts.size() * 16), nullptr, n});
    }
  }
  return drafts;
}

// The groups a DEPBAR or WARPGROUP.DEPBAR leaves outstanding: its first hexadecimal operand
// ("DEPBAR.LE SB0, 0x3"). A multi-stage pipeline waits only for its oldest copies; without the
// count, every wait would drain the whole pipeline.
std::optional<int64_t> wait_count(const workloads::SassInstruction& inst) {
  const std::string_view m = inst.mnemonic;
  if (!m.starts_with("DEPBAR") && !m.starts_with("WARPGROUP.DEPBAR")) return std::nullopt;
  for (size_t at = inst.operands.find("0x"); at != std::string::npos;
       at = inst.operands.find("0x", at + 2)) {
    int64_t value = 0;
    const char* first = inst.operands.data() + at + 2;
    const char* last = inst.operands.data() + inst.operands.size();
    const auto [end, ec] = std::from_chars(first, last, value, 16);
    if (ec == std::errc() && end != first) return value;
  }
  return std::nullopt;
}

// Registers: parsed from the SASS text when present, else each instruction reads the previous
// one's result.
void set_registers(PlanEntry& entry, const Draft& d, const traces::OpcodeInfo& info,
                   traces::Reg& previous, size_t index) {
  if (!d.sass.empty()) {
    workloads::SassInstruction inst;
    std::string_view text = d.sass;
    if (text.starts_with("@")) {
      const size_t space = text.find(' ');
      std::string_view g = text.substr(1, space == std::string_view::npos ? 0 : space - 1);
      entry.guard_negated = g.starts_with("!");
      if (entry.guard_negated) g.remove_prefix(1);
      if (const auto r = traces::parse_register(g)) entry.guard = *r;
      text.remove_prefix(
          std::min(text.size(), space == std::string_view::npos ? text.size() : space));
    }
    while (text.starts_with(" ")) text.remove_prefix(1);
    const size_t sp = text.find(' ');
    inst.mnemonic = std::string(text.substr(0, sp));
    inst.operands = sp == std::string_view::npos ? "" : std::string(text.substr(sp + 1));
    while (!inst.operands.empty() && (inst.operands.back() == ' ' || inst.operands.back() == ';')) {
      inst.operands.pop_back();
    }
    workloads::parse_operands(inst);
    entry.dsts = inst.dsts;
    entry.srcs = inst.srcs;
    entry.wait_count = wait_count(inst);
    return;
  }
  const bool writes = !(info.access == traces::AccessKind::kStore ||
                        info.op_class == arch::BRANCH || info.op_class == arch::BARRIER ||
                        info.op_class == arch::EXIT || info.op_class == arch::CONTROL);
  if (previous.valid()) entry.srcs.push_back(previous);
  if (writes) {
    entry.dsts.push_back(traces::gpr(static_cast<uint32_t>(2 + index % 200)));
    previous = entry.dsts.back();
  }
}

}  // namespace

const char* fidelity_name(PlanFidelity fidelity) {
  switch (fidelity) {
    case PlanFidelity::kListing:
      return "sass listing";
    case PlanFidelity::kPerPc:
      return "per-pc counts";
    case PlanFidelity::kOpcodeMix:
      return "opcode mix";
    case PlanFidelity::kKernelTotals:
      return "kernel totals";
  }
  return "?";
}

namespace {

// The mnemonic an entry is replayed as. Every warp replays every barrier, as one CTA-wide
// barrier, so an arrive-only barrier (BAR.ARV: a producer signalling consumers on a named
// barrier) would let one warp's arrival count in a later generation than its partners' and
// deadlock (cuDNN's FlashAttention did): it is replayed as a waiting one.
std::string replayed_mnemonic(traces::Isa isa, const std::string& mnemonic) {
  const traces::OpcodeInfo info = traces::classify_opcode(isa, mnemonic);
  if (info.base == "BAR" && mnemonic.find(".ARV") != std::string::npos) return "BAR.SYNC";
  return mnemonic;
}

}  // namespace

ReplayPlan plan_from_profile(const KernelProfile& p) {
  const std::string where = p.input + ": kernel " + p.name;
  if (p.grid.volume() == 0 || p.block.volume() == 0) {
    throw InputError(where + ": no launch configuration (grid and block sizes)");
  }
  ReplayPlan plan;
  const traces::Isa isa = isa_of(p.sm_version);
  auto opcodes = std::make_shared<traces::OpcodeTable>(isa);
  std::vector<Draft> drafts = drafts_of(p, isa, plan.fidelity);
  if (drafts.empty()) {
    throw InputError(where +
                     ": no instruction counts to replay (expected per-PC counts, the "
                     "source page or sass__inst_executed_per_opcode)");
  }
  const double warps = static_cast<double>(p.warps());
  const uint32_t warps_per_cta = traces::warps_per_cta(p.block, 32);
  const double lanes_per_warp = static_cast<double>(p.block.volume()) / warps_per_cta;
  double load_sectors = 0, store_sectors = 0;
  // Atomics and reductions, when ncu measured the sectors they missed, walk those alone; their
  // sectors then take no share of the loads' DRAM-sized footprint.
  double atomic_sectors[2] = {0, 0};  // atomics, reductions
  const std::optional<double> atomic_unique[2] = {atomic_unique_sectors(p, false),
                                                  atomic_unique_sectors(p, true)};
  // An entry's index into those (1: reduction, 0: atomic), when its kind's footprint is measured;
  // else -1.
  const auto own_footprint = [&](const traces::OpcodeInfo& info) {
    const int kind = info.access == traces::AccessKind::kReduction ? 1
                     : info.access == traces::AccessKind::kAtomic  ? 0
                                                                   : -1;
    return kind >= 0 && atomic_unique[kind] ? kind : -1;
  };
  std::vector<double> sectors(drafts.size(), 0);
  // Warp-cycles one warp-state sample stands for: every issue is one "selected" warp-cycle, so
  // the kernel's issues over its selected samples.
  double issues = 0, selected = 0;
  // TMA copies, loads and stores: executions, and the kernel's copy sectors they share evenly.
  double tma_counts[2] = {0, 0};
  const double tma_total[2] = {tma_sectors(p, false), tma_sectors(p, true)};
  // Wait samples of the PCs sampled too seldom to stand for themselves, and their executions.
  double sparse_wait_samples = 0, sparse_wait_count = 0;
  for (size_t i = 0; i < drafts.size(); ++i) {
    const Draft& d = drafts[i];
    issues += d.count;
    if (d.measured != nullptr) selected += d.measured->samples_of("selected");
    const auto info = traces::classify_opcode(isa, d.mnemonic);
    if (const double w = d.measured != nullptr ? d.measured->samples_of("wait") : 0;
        info.op_class != arch::EXIT && d.count > 0 && w < kMinWaitSamples) {
      sparse_wait_samples += w;
      sparse_wait_count += d.count;
    }
    if (tma_copy(info)) tma_counts[info.space == traces::MemSpace::kSharedToGlobal] += d.count;
    if (!lane_addressed_global(info)) continue;
    const bool store = info.access == traces::AccessKind::kStore;
    const double spr =
        d.measured && d.measured->l2_sectors > 0
            ? d.measured->l2_sectors / d.count
            : (store ? p.global_store_sectors_per_request : p.global_load_sectors_per_request);
    sectors[i] = std::max(1.0, spr) * d.count;
    if (const int kind = own_footprint(info); kind >= 0) {
      atomic_sectors[kind] += sectors[i];
    } else {
      (store ? store_sectors : load_sectors) += sectors[i];
    }
  }
  const bool sparse_loads = loads_are_sparse(p, load_sectors);
  const double cycles_per_sample = selected > 0 ? issues / selected : 0;
  const double tma_load_sectors = tma_total[0];
  const double traffic = load_sectors + store_sectors + atomic_sectors[0] + atomic_sectors[1] +
                         tma_total[0] + tma_total[1];
  // The seldom-sampled PCs share their waits evenly: cycles per execution, spread in whole
  // cycles (the stall counts' unit) so that their sum over the PCs stays the measured one.
  const double sparse_wait =
      sparse_wait_count > 0 ? sparse_wait_samples * cycles_per_sample / sparse_wait_count : 0;
  double sparse_carry = 0;
  traces::Reg previous{};
  for (size_t i = 0; i < drafts.size(); ++i) {
    const Draft& d = drafts[i];
    PlanEntry e;
    e.opcode = opcodes->intern(replayed_mnemonic(isa, d.mnemonic));
    const traces::OpcodeInfo& info = opcodes->info(e.opcode);
    if (info.op_class == arch::EXIT) continue;
    e.pc = d.pc;
    e.per_warp = d.count / warps;
    e.uniform = info.op_class == arch::BARRIER;
    // A PC's waits, when sampled often enough to stand for it (10 samples: a third off at
    // most, one standard error); a sample or two over a short kernel's many PCs would stall
    // its PCs unevenly, so those PCs take an even share of their pooled waits instead.
    const double wait_samples = d.measured != nullptr ? d.measured->samples_of("wait") : 0;
    if (d.count > 0 && wait_samples >= kMinWaitSamples) {
      e.wait_cycles = wait_samples * cycles_per_sample / d.count;
    } else if (d.count > 0) {
      sparse_carry += sparse_wait;
      e.wait_cycles = std::floor(sparse_carry + 0.5);
      sparse_carry -= e.wait_cycles;
    }
    if (info.base == "HGMMA" || info.base == "WARPGROUP") plan.warpgroup_collective = true;
    const double threads = d.measured ? d.measured->pred_on_threads / d.count : p.simt_efficiency;
    e.lane_fraction = std::clamp(threads / lanes_per_warp, 0.0, 1.0);
    set_registers(e, d, info, previous, i);
    e.region = kGlobalRegions + kRegionBytes * i;
    // A TMA copy's lines: its share of the kernel's copy sectors (none when ncu gave no bytes).
    uint32_t copy_lines = 0;
    if (tma_copy(info) && d.count > 0) {
      const bool store = info.space == traces::MemSpace::kSharedToGlobal;
      copy_lines = static_cast<uint32_t>(std::clamp(
          std::lround(tma_total[store] / std::max(tma_counts[store], 1.0) / 4), 0L, 1L << 16));
    }
    if (sectors[i] > 0) {
      const bool store = info.access == traces::AccessKind::kStore;
      // Atomics and reductions land on the sectors they missed on the GPU, when measured.
      const int kind = own_footprint(info);
      const double kind_sectors = kind >= 0 ? atomic_sectors[kind]
                                  : store   ? store_sectors
                                            : load_sectors + tma_load_sectors;
      const Shape shape =
          global_shape(d.count, d.measured, p, sectors[i], kind_sectors, store, sparse_loads,
                       kind >= 0 ? atomic_unique[kind] : std::nullopt);
      e.sectors_per_request = shape.sectors;
      e.lines_per_request = shape.lines;
      e.sparse = shape.sparse;
      e.footprint_sectors = shape.footprint;
      e.reuse_group = shape.reuse_group;
      // The kernel's global entries walk their footprints side by side: each re-reads within
      // its share (by sectors) of a 4 MiB window, so that together they re-read within 4 MiB of
      // the kernel's traffic, inside any target's L2, and fetch each line from DRAM once.
      const double share = sectors[i] / std::max(traffic, 1.0);
      e.window_lines = static_cast<uint64_t>(
          std::max(1.0, std::floor(share * static_cast<double>(kReuseWindowBytes / 128))));
    } else if (copy_lines > 0) {
      const bool store = info.space == traces::MemSpace::kSharedToGlobal;
      e.copy_lines = copy_lines;
      // Loads' unique lines from their share of the DRAM reads; stores write each line once.
      const double copy_sectors = 4.0 * e.copy_lines * d.count;
      const double unique = store ? copy_sectors
                                  : p.dram_read_bytes / 32 * copy_sectors /
                                        std::max(load_sectors + tma_load_sectors, 1.0);
      const double least = 4.0 * std::max<uint32_t>(e.copy_lines, 1);
      e.footprint_sectors =
          static_cast<uint64_t>(std::clamp(unique, least, std::max(copy_sectors, least)));
      e.window_lines = static_cast<uint64_t>(
          std::max(1.0, std::floor(std::min(copy_sectors / std::max(traffic, 1.0), 1.0) *
                                   static_cast<double>(kReuseWindowBytes / 128))));
    } else if (info.space == traces::MemSpace::kLocal) {
      e.footprint_sectors = static_cast<uint64_t>(std::max(1.0, d.count * 4));
    } else if (info.space == traces::MemSpace::kShared && !d.measured) {
      const bool store = info.access == traces::AccessKind::kStore;
      const std::string op = store ? "st" : "ld";
      const double wavefronts =
          p.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum").value_or(0);
      const double conflicts =
          p.metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum").value_or(0);
      if (wavefronts > conflicts && conflicts > 0) {
        e.conflict_ways = static_cast<uint32_t>(
            std::clamp(std::lround(wavefronts / (wavefronts - conflicts)), 1L, 32L));
      }
    } else if (info.space == traces::MemSpace::kShared && d.measured) {
      e.conflict_ways = shared_conflict_ways(*d.measured, info);
    }
    plan.entries.push_back(std::move(e));
  }
  plan.exit_opcode = opcodes->intern("EXIT");
  if (const auto waves = p.metric("launch__waves_per_multiprocessor"); waves && *waves > 1) {
    plan.ctas_per_wave =
        static_cast<uint64_t>(std::ceil(static_cast<double>(p.grid.volume()) / *waves - 1e-6));
  }

  traces::KernelInfo& k = plan.info;
  k.name = p.mangled_name.empty() ? p.name : p.mangled_name;
  k.grid = p.grid;
  k.block = p.block;
  k.cluster = {1, 1, 1};
  k.registers_per_thread = p.registers_per_thread == 0 ? 32 : p.registers_per_thread;
  k.static_shared_bytes = p.static_shared_bytes;
  k.dynamic_shared_bytes = p.dynamic_shared_bytes;
  k.isa = isa;
  k.binary_version = p.sm_version;
  k.source_gpu = p.source_gpu.empty() ? "ncu profile" : p.source_gpu;
  k.opcodes = opcodes;
  k.validate(where);
  return plan;
}

}  // namespace warpsim::replay
