#include "sim/replay/profile_source.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <queue>
#include <utility>
#include <vector>

namespace warpsim::replay {
namespace {

// Where the footprint walk puts the `group`-th of `groups` groups of requests that each touch
// `lines` lines, over `sets` line sets with `q` sector slots each: its set and slot.
//
// The walk takes one sector slot of every line set of a window before the next slot: a line's
// other sectors come round a window later (L2 reuse of its fetch granule, not L1 hits). The
// window is the whole footprint when it is small; a larger footprint is walked window by window
// (PlanEntry::window_lines), each set's visits all within its window, so that a line is fetched
// from DRAM once (the footprint comes from the measured DRAM bytes) on any target's L2.
std::pair<uint64_t, uint64_t> walk(const PlanEntry& e, uint64_t group, uint64_t groups,
                                   uint64_t lines, uint64_t sets, uint64_t q) {
  const uint64_t window = std::min(sets, std::max<uint64_t>(1, e.window_lines / lines));
  // Window c holds sets [c w, c w + w) and groups [start(c), start(c + 1)): each window gets its
  // sets' share of the groups, so every set is visited groups / sets times (rounded).
  const auto start = [&](uint64_t c) { return c * window * groups / sets; };
  uint64_t chunk = std::min(group * sets / (window * groups), (sets - 1) / window);
  while (chunk > 0 && start(chunk) > group) --chunk;
  while ((chunk + 1) * window < sets && start(chunk + 1) <= group) ++chunk;
  const uint64_t first_set = chunk * window;
  const uint64_t span = std::min(window, sets - first_set);
  const uint64_t r = group - std::min(group, start(chunk));
  return {first_set + r % span, (r / span) % q};
}

// Fills the lane addresses of one dynamic execution: the `k`-th of the `executions` of its entry
// over the grid.
void lane_addresses(const PlanEntry& e, const traces::OpcodeInfo& info, uint64_t k,
                    uint64_t executions, uint32_t n, std::array<uint64_t, 64>& out) {
  const uint64_t width_bytes = std::max<uint64_t>(info.width_bytes, 4);
  switch (info.space) {
    case traces::MemSpace::kShared: {
      // The banks serve 128 B a wavefront, so a wide access goes in phases (8 lanes of 16 B, 16
      // of 8 B); within each phase, lanes share a 128 B row `group` at a time and each further
      // row costs a wavefront: `conflict_ways` wavefronts a phase.
      const uint64_t phase = std::max<uint64_t>(1, 128 / std::min<uint64_t>(width_bytes, 128));
      const uint64_t group = std::max<uint64_t>(1, phase / e.conflict_ways);
      for (uint32_t a = 0; a < n; ++a) {
        const uint64_t i = a % phase;
        out[a] = (i % group) * width_bytes + (i / group) * 128;
      }
      return;
    }
    case traces::MemSpace::kConstant:
      for (uint32_t a = 0; a < n; ++a) out[a] = e.region;
      return;
    default:
      break;
  }
  // A request spreads its s sectors over L lines as evenly as they go (sector j in line
  // floor(j L / s), so every one of the L lines is touched: ncu's L1 tag lookups), at least spl
  // sectors in each. Dense: q groups of requests share each line set, in different sectors;
  // sparse: the rest of each line stays untouched. Groups walk the footprint's line sets and wrap.
  const uint64_t s = e.sectors_per_request;
  const uint64_t lines = std::clamp<uint64_t>(e.lines_per_request, (s + 3) / 4, s);
  const uint64_t spl = std::max<uint64_t>(1, s / lines);
  const uint64_t q = e.sparse ? 1 : std::max<uint64_t>(1, 4 / spl);
  const uint64_t footprint = std::max<uint64_t>(e.footprint_sectors, s);
  const uint64_t footprint_lines = (footprint + spl * q - 1) / (spl * q);
  const uint64_t sets = std::max<uint64_t>(1, footprint_lines / lines);
  // Request k belongs to group floor(k / reuse): a fractional reuse gives some groups one more
  // reader than others, so that the share of requests that re-read a group's sectors is the
  // measured L1 hit rate.
  const double reuse = std::max(e.reuse_group, 1.0);
  const auto group_of = [reuse](uint64_t i) {
    return static_cast<uint64_t>(std::floor(static_cast<double>(i) / reuse + 1e-9));
  };
  const uint64_t groups = executions > 0 ? group_of(executions - 1) + 1 : 1;
  const uint64_t group = group_of(k);
  const auto [set, slot] = walk(e, group, std::max(groups, group + 1), lines, sets, q);
  for (uint32_t a = 0; a < n; ++a) {
    const uint64_t j = uint64_t{a} * s / n;      // The lane's sector in the request.
    const uint64_t first = (j * n + s - 1) / s;  // First lane of sector j.
    const uint64_t offset =
        std::min<uint64_t>((a - first) * width_bytes, 32 - std::min<uint64_t>(width_bytes, 32));
    const uint64_t in_line = j * lines / s;
    const uint64_t within = j - (in_line * s + lines - 1) / lines;  // Rank in its line.
    const uint64_t line = set * lines + in_line;
    const uint64_t sector = (slot * spl + within) % 4;
    out[a] = e.region + (line * 4 + sector) * 32 + offset;
  }
}

// Gives a TMA copy (the `k`-th of its entry's `executions`) its trace fields: copy_lines whole
// lines of the entry's footprint, consecutive, walked like a request's line set.
void copy_addresses(const PlanEntry& e, uint64_t k, uint64_t executions,
                    traces::WarpInstruction& inst, traces::WarpTrace& warp) {
  const uint64_t lines = e.copy_lines;
  const uint64_t sets = std::max<uint64_t>(1, e.footprint_sectors / 4 / lines);
  const uint64_t set = walk(e, k, std::max<uint64_t>(executions, 1), lines, sets, 1).first;
  traces::TmaInfo tma;
  tma.bytes = static_cast<uint32_t>(lines * 128);
  tma.address_offset = static_cast<uint32_t>(warp.addresses.size());
  tma.address_count = static_cast<uint32_t>(lines);
  for (uint64_t l = 0; l < lines; ++l) warp.addresses.push_back(e.region + (set * lines + l) * 128);
  warp.mutable_extras(inst).tma = tma;
}

}  // namespace

void build_warp(const ReplayPlan& plan, uint64_t global_warp, uint64_t total_warps, uint32_t lanes,
                traces::WarpTrace& warp) {
  const traces::OpcodeTable& opcodes = *plan.info.opcodes;
  std::vector<uint64_t> budget(plan.entries.size());
  // Each warp's share of a count: spread over the grid's warps, or, in a kernel with
  // warpgroup-collective instructions, over its CTAs, every warp of a CTA taking its CTA's share
  // (the totals stay within a CTA's warps of the measured counts).
  const uint64_t warps_per_cta = std::max<uint64_t>(1, plan.info.warps_per_cta());
  const bool by_cta = plan.warpgroup_collective;
  const uint64_t unit = by_cta ? global_warp / warps_per_cta : global_warp;
  const uint64_t units = by_cta ? std::max<uint64_t>(1, total_warps / warps_per_cta) : total_warps;
  const uint64_t copies = by_cta ? warps_per_cta : 1;  // Warps running each unit's share.
  const uint64_t copy = by_cta ? global_warp % warps_per_cta : 0;
  const auto before = [](uint64_t u, double per_unit) {  // Executions of the units before u.
    return static_cast<uint64_t>(std::floor(static_cast<double>(u) * per_unit + 1e-6));
  };
  // Each entry's executions over the grid (the ordinals below number them densely).
  std::vector<uint64_t> executions(plan.entries.size());
  for (size_t i = 0; i < plan.entries.size(); ++i) {
    const PlanEntry& e = plan.entries[i];
    const auto whole_count = static_cast<uint64_t>(std::llround(e.per_warp));
    budget[i] = e.uniform ? whole_count : before(unit + 1, e.per_warp) - before(unit, e.per_warp);
    executions[i] = (e.uniform ? whole_count * units : before(units, e.per_warp)) * copies;
  }
  // The ordinal of this warp's p-th execution of an entry among the grid's `executions`: wave
  // by wave (the units resident at once on the measured GPU), and within a wave pass by pass
  // (every unit's first execution, then every unit's second, ...). Warps that run at the same
  // time walk neighbouring parts of the entry's footprint, and the ordinals are dense whatever
  // the per-warp count (a count of half a warp takes every other warp).
  const uint64_t wave_units =
      plan.ctas_per_wave == 0
          ? units
          : std::clamp<uint64_t>(plan.ctas_per_wave * (by_cta ? 1 : warps_per_cta), 1, units);
  const uint64_t wave_first = unit / wave_units * wave_units;
  const uint64_t in_wave = unit - wave_first;
  const uint64_t wave_size = std::min(wave_units, units - wave_first);
  const auto ordinal = [&](const PlanEntry& e, uint64_t p) {
    uint64_t rank = 0;
    if (e.uniform) {
      rank = wave_first * static_cast<uint64_t>(std::llround(e.per_warp)) + p * wave_size + in_wave;
    } else {
      const auto whole = static_cast<uint64_t>(std::floor(e.per_warp));  // Every unit runs these.
      const uint64_t base = before(wave_first, e.per_warp);
      rank = base + (p < whole
                         ? p * wave_size + in_wave
                         : whole * wave_size + (before(unit, e.per_warp) - base - whole * in_wave));
    }
    return rank * copies + copy;
  };
  // The whole stream is held while the warp is resident: reserve it exactly.
  size_t instructions = 1, addresses_needed = 0;
  for (size_t i = 0; i < plan.entries.size(); ++i) {
    instructions += budget[i];
    const PlanEntry& e = plan.entries[i];
    if (e.copy_lines > 0) {
      addresses_needed += budget[i] * e.copy_lines;
    } else if (opcodes.info(e.opcode).is_memory()) {
      addresses_needed += budget[i] * lanes;
    }
  }
  warp.instructions.reserve(warp.instructions.size() + instructions);
  warp.addresses.reserve(warp.addresses.size() + addresses_needed);
  const traces::LaneMask all =
      lanes >= 64 ? ~traces::LaneMask{0} : (traces::LaneMask{1} << lanes) - 1;
  std::array<uint64_t, 64> addresses{};
  const auto emit = [&](const PlanEntry* e, traces::OpcodeId opcode, uint32_t pc, uint64_t p) {
    traces::WarpInstruction inst;
    inst.opcode = opcode;
    inst.pc = pc;
    uint32_t n = lanes;
    if (e != nullptr && e->wait_cycles >= 0.5 && !warp.instructions.empty()) {
      // The measured wait before this instruction is the stall count of the one before it.
      traces::WarpInstruction& before = warp.instructions.back();
      const auto stall = static_cast<uint8_t>(std::min(255L, std::lround(e->wait_cycles) + 1));
      before.issue_stall = std::max(before.issue_stall, stall);
    }
    if (e != nullptr) {
      n = static_cast<uint32_t>(std::lround(e->lane_fraction * lanes));
      n = std::min(n, lanes);
      inst.num_dst = static_cast<uint8_t>(std::min<size_t>(e->dsts.size(), traces::kMaxDsts));
      inst.num_src = static_cast<uint8_t>(std::min<size_t>(e->srcs.size(), traces::kMaxSrcs));
      for (size_t r = 0; r < inst.num_dst; ++r) inst.dst[r] = e->dsts[r];
      for (size_t r = 0; r < inst.num_src; ++r) inst.src[r] = e->srcs[r];
      inst.guard = e->guard;
      if (e->guard_negated) inst.flags |= traces::kInstGuardNegated;
      if (e->wait_count) {
        inst.imm = *e->wait_count;
        inst.flags |= traces::kInstHasImm;
      }
    }
    inst.active_mask = n >= 64 ? all : ((traces::LaneMask{1} << n) - 1) & all;
    const traces::OpcodeInfo& info = opcodes.info(opcode);
    if (e != nullptr && e->copy_lines > 0) {
      copy_addresses(*e, ordinal(*e, p), executions[static_cast<size_t>(e - plan.entries.data())],
                     inst, warp);
    } else if (info.is_memory() && e != nullptr) {
      inst.mem_width = info.width_bytes;
      lane_addresses(*e, info, ordinal(*e, p),
                     executions[static_cast<size_t>(e - plan.entries.data())], n, addresses);
      warp.set_lane_addresses(inst, std::span<const uint64_t>(addresses.data(), n));
    }
    warp.instructions.push_back(inst);
  };
  // Runs of neighbouring entries with the same count form a loop body: each run repeats its
  // count before the next starts, so paths of a divergent branch run one after the other, as
  // the hardware serialises them.
  struct Run {
    size_t first, end;
    uint64_t count;
  };
  std::vector<Run> runs;
  const size_t n = plan.entries.size();
  for (size_t i = 0; i < n;) {
    if (budget[i] == 0) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < n && (budget[end] == budget[i] || budget[end] == 0)) ++end;
    runs.push_back({i, end, budget[i]});
    i = end;
  }
  const auto body = [&](const Run& run, uint64_t p) {
    for (size_t t = run.first; t < run.end; ++t) {
      if (budget[t] == 0) continue;
      const PlanEntry& e = plan.entries[t];
      emit(&e, e.opcode, e.pc, p);
    }
  };
  if (!plan.warpgroup_collective) {
    for (const Run& run : runs) {
      for (uint64_t p = 0; p < run.count; ++p) body(run, p);
    }
  } else {
    // A warp-specialised kernel's roles run at once (the producer's copies beside the
    // consumers' wgmma), but every warp replays every role: the runs' passes are merged, pass p
    // of a run of c passes at (p + 1/2) / c of the warp's stream (ties in PC order).
    using Next = std::pair<uint64_t, size_t>;  // (pass, run)
    const auto later = [&](const Next& a, const Next& b) {
      const unsigned __int128 ta =
          (2 * static_cast<unsigned __int128>(a.first) + 1) * runs[b.second].count;
      const unsigned __int128 tb =
          (2 * static_cast<unsigned __int128>(b.first) + 1) * runs[a.second].count;
      return ta != tb ? ta > tb : a.second > b.second;
    };
    std::priority_queue<Next, std::vector<Next>, decltype(later)> next(later);
    for (size_t r = 0; r < runs.size(); ++r) next.push({0, r});
    while (!next.empty()) {
      const auto [p, r] = next.top();
      next.pop();
      body(runs[r], p);
      if (p + 1 < runs[r].count) next.push({p + 1, r});
    }
  }
  const uint32_t exit_pc = plan.entries.empty() ? 0 : plan.entries.back().pc + 16;
  emit(nullptr, plan.exit_opcode, exit_pc, 0);
}

ProfileKernelSource::ProfileKernelSource(std::vector<ReplayPlan> plans, std::string description)
    : plans_(std::move(plans)), description_(std::move(description)) {}

bool ProfileKernelSource::next_kernel(traces::KernelInfo& kernel) {
  if (next_plan_ >= plans_.size()) {
    current_ = nullptr;
    return false;
  }
  current_ = &plans_[next_plan_++];
  next_cta_ = 0;
  kernel = current_->info;
  return true;
}

bool ProfileKernelSource::next_cta(traces::CtaTrace& cta) {
  if (current_ == nullptr || next_cta_ >= current_->info.cta_count()) return false;
  const traces::KernelInfo& info = current_->info;
  const uint64_t linear = next_cta_++;
  const uint32_t warps = info.warps_per_cta();
  const uint64_t threads = info.block.volume();
  cta.index = traces::index_from_linear(linear, info.grid);
  cta.cluster.reset();
  cta.reset(warps);
  const uint64_t total = info.cta_count() * warps;
  for (uint32_t w = 0; w < warps; ++w) {
    const auto lanes = static_cast<uint32_t>(std::min<uint64_t>(32, threads - uint64_t{w} * 32));
    build_warp(*current_, linear * warps + w, total, lanes, cta.warps[w]);
  }
  return true;
}

}  // namespace warpsim::replay
