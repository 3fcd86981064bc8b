#include "sim/replay/source_comparison.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "sim/stats/csv_writer.h"

namespace warpsim::replay {
namespace {

using Shares = std::array<double, core::kStallReasonCount>;

std::string percent(double part, double whole) {
  if (whole <= 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", 100.0 * part / whole);
  return buf;
}

std::string whole(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// The measured samples of one PC per model reason.
Shares measured_samples(const traces::ncu::PcProfile& pc) {
  Shares s{};
  for (const auto& [column, samples] : pc.samples) {
    if (const auto r = reason_of_source_column(column)) s[static_cast<std::size_t>(*r)] += samples;
  }
  return s;
}

double sum(const Shares& s) {
  double total = 0;
  for (double v : s) total += v;
  return total;
}

}  // namespace

std::optional<core::StallReason> reason_of_source_column(std::string_view column) {
  using core::StallReason;
  static constexpr std::array<std::pair<std::string_view, StallReason>, 9> kRenamed{{
      {"long_sb", StallReason::kLongScoreboard},
      {"short_sb", StallReason::kShortScoreboard},
      {"imc", StallReason::kShortScoreboard},
      {"math", StallReason::kMathPipeThrottle},
      {"mio", StallReason::kMioThrottle},
      {"lg", StallReason::kLgThrottle},
      {"tex", StallReason::kTexThrottle},
      {"no_inst", StallReason::kNoInstruction},
      {"dispatch", StallReason::kDispatchStall},
  }};
  for (const auto& [name, reason] : kRenamed) {
    if (name == column) return reason;
  }
  if (column == "sleep") return StallReason::kSleeping;
  return core::parse_stall_reason(column);
}

void write_source_comparison(const std::vector<KernelReplay>& replays,
                             const std::vector<size_t>& launch, std::ostream& os) {
  os << "launch,kernel,pc,sass,executions_measured,executions_simulated,share_measured,"
        "share_simulated";
  for (int r = 0; r < core::kStallReasonCount; ++r) {
    const std::string_view name = core::stall_reason_name(static_cast<core::StallReason>(r));
    os << ',' << name << "_measured," << name << "_simulated";
  }
  os << "\n";
  for (size_t k = 0; k < replays.size(); ++k) {
    const KernelReplay& replay = replays[k];
    if (!replay.target_source) continue;
    const auto& pcs = replay.profile.pcs;
    if (std::none_of(pcs.begin(), pcs.end(), [](const auto& p) { return !p.samples.empty(); })) {
      continue;
    }
    std::vector<Shares> measured(pcs.size());
    double measured_total = 0;
    for (size_t i = 0; i < pcs.size(); ++i) {
      measured[i] = measured_samples(pcs[i]);
      measured_total += sum(measured[i]);
    }
    const auto simulated_total = static_cast<double>(replay.target_source->total_warp_cycles());
    const auto write_row = [&](uint64_t offset, const std::string& sass, double executions,
                               const Shares& m, const gpu::SourceRow* row) {
      Shares s{};
      if (row != nullptr) {
        for (size_t r = 0; r < s.size(); ++r) s[r] = static_cast<double>(row->warp_cycles[r]);
      }
      char pc[24];
      std::snprintf(pc, sizeof pc, "0x%05llx", static_cast<unsigned long long>(offset));
      os << (k < launch.size() ? launch[k] : k) << ',' << stats::csv_field(replay.profile.name)
         << ',' << pc << ',' << stats::csv_field(sass) << ',' << whole(executions) << ','
         << (row != nullptr ? row->executions : 0) << ',' << percent(sum(m), measured_total)
         << ',' << percent(sum(s), simulated_total);
      for (size_t r = 0; r < s.size(); ++r) {
        os << ',' << percent(m[r], measured_total) << ',' << percent(s[r], simulated_total);
      }
      os << "\n";
    };
    std::set<uint64_t> listed;
    for (size_t i = 0; i < pcs.size(); ++i) {
      listed.insert(pcs[i].offset);
      write_row(pcs[i].offset, pcs[i].sass, pcs[i].warp_insts, measured[i],
                replay.target_source->find(static_cast<std::uint32_t>(pcs[i].offset)));
    }
    // The replayed stream's own instructions (each warp's closing EXIT) after the listing.
    for (const gpu::SourceRow& row : replay.target_source->rows) {
      if (listed.contains(row.pc)) continue;
      const auto& opcodes = replay.target_source->opcodes;
      const std::string name = opcodes != nullptr && row.opcode < opcodes->size()
                                   ? opcodes->info(row.opcode).mnemonic
                                   : std::string("?");
      write_row(row.pc, name + " (replayed stream, not in the listing)", 0, Shares{}, &row);
    }
  }
}

}  // namespace warpsim::replay
