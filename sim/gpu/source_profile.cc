#include "sim/gpu/source_profile.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <unordered_map>
#include <utility>

#include "arch/error.h"
#include "sim/core/sm_config.h"

namespace warpsim::gpu {

// One SM's table: a row per PC, and per warp slot the cycles it has stalled since its last issue
// (they belong to the instruction it issues next) and the PC it issued last.
class SourceProfile::SmRecorder final : public core::Observer {
 public:
  void on_issue(const core::IssueEvent& e) override {
    SourceRow& row = row_of(e.pc, e.opcode);
    ++row.executions;
    ++row.warp_cycles[static_cast<std::size_t>(core::StallReason::kSelected)];
    Slot& s = slots_[static_cast<std::size_t>(e.warp_slot)];
    for (std::size_t r = 0; r < s.pending.size(); ++r) row.warp_cycles[r] += s.pending[r];
    s.pending.fill(0);
    s.last = static_cast<std::int64_t>(&row - rows_.data());
  }

  void on_stall(const core::StallEvent& e) override {
    // Issue cycles are counted per issue (a warp issuing back to back is charged them in one
    // interval, after the fact).
    if (e.reason == core::StallReason::kSelected) return;
    Slot& s = slots_[static_cast<std::size_t>(e.warp_slot)];
    const auto r = static_cast<std::size_t>(e.reason);
    // A warp that has finished issuing waits on its last instruction.
    if (e.reason == core::StallReason::kDrain && s.last >= 0) {
      rows_[static_cast<std::size_t>(s.last)].warp_cycles[r] += e.cycles;
      return;
    }
    s.pending[r] += e.cycles;
  }

  // Moves the table out (sorted by PC later) and forgets every slot.
  std::vector<SourceRow> take() {
    for (Slot& s : slots_) {
      if (s.last >= 0) {
        SourceRow& row = rows_[static_cast<std::size_t>(s.last)];
        for (std::size_t r = 0; r < s.pending.size(); ++r) row.warp_cycles[r] += s.pending[r];
      }
      s = Slot{};
    }
    index_.clear();
    return std::exchange(rows_, {});
  }

 private:
  struct Slot {
    std::array<std::uint64_t, core::kStallReasonCount> pending{};
    std::int64_t last = -1;  // index into rows_
  };

  SourceRow& row_of(std::uint32_t pc, traces::OpcodeId opcode) {
    const auto [it, inserted] = index_.try_emplace(pc, rows_.size());
    if (inserted) {
      rows_.push_back(SourceRow{});
      rows_.back().pc = pc;
      rows_.back().opcode = opcode;
    }
    return rows_[it->second];
  }

  std::unordered_map<std::uint32_t, std::size_t> index_;
  std::vector<SourceRow> rows_;
  std::array<Slot, core::kMaxWarpsPerSm> slots_{};
};

std::uint64_t KernelSourceProfile::total_warp_cycles() const {
  std::uint64_t sum = 0;
  for (const SourceRow& row : rows) {
    for (std::uint64_t c : row.warp_cycles) sum += c;
  }
  return sum;
}

const SourceRow* KernelSourceProfile::find(std::uint32_t pc) const {
  const auto it = std::lower_bound(rows.begin(), rows.end(), pc,
                                   [](const SourceRow& r, std::uint32_t p) { return r.pc < p; });
  return it != rows.end() && it->pc == pc ? &*it : nullptr;
}

SourceProfile::SourceProfile(int sms) {
  for (int s = 0; s < sms; ++s) recorders_.push_back(std::make_unique<SmRecorder>());
}

SourceProfile::~SourceProfile() = default;

core::Observer& SourceProfile::observer(int sm) {
  return *recorders_.at(static_cast<std::size_t>(sm));
}

void SourceProfile::start_kernel(const std::string& name,
                                 std::shared_ptr<const traces::OpcodeTable> opcodes) {
  kernels_.push_back(KernelSourceProfile{name, std::move(opcodes), {}});
}

void SourceProfile::end_kernel() {
  if (kernels_.empty()) throw InternalError("source profile: end_kernel without start_kernel");
  std::vector<SourceRow>& rows = kernels_.back().rows;
  for (auto& recorder : recorders_) {
    for (const SourceRow& row : recorder->take()) rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(),
            [](const SourceRow& a, const SourceRow& b) { return a.pc < b.pc; });
  // Merge the SMs' rows of one PC.
  std::size_t out = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (out > 0 && rows[out - 1].pc == rows[i].pc) {
      rows[out - 1].executions += rows[i].executions;
      for (std::size_t r = 0; r < rows[i].warp_cycles.size(); ++r) {
        rows[out - 1].warp_cycles[r] += rows[i].warp_cycles[r];
      }
    } else {
      rows[out++] = rows[i];
    }
  }
  rows.resize(out);
}

void SourceProfile::write_csv(std::ostream& os) const {
  os << "kernel,pc,opcode,executions";
  for (int r = 0; r < core::kStallReasonCount; ++r) {
    os << ",stall_" << core::stall_reason_name(static_cast<core::StallReason>(r));
  }
  os << "\n";
  for (const KernelSourceProfile& k : kernels_) {
    std::string name = k.name;
    std::replace(name.begin(), name.end(), '"', '\'');
    for (const SourceRow& row : k.rows) {
      char pc[16];
      std::snprintf(pc, sizeof pc, "0x%05x", row.pc);
      const std::string mnemonic = k.opcodes != nullptr && row.opcode < k.opcodes->size()
                                       ? k.opcodes->info(row.opcode).mnemonic
                                       : "op" + std::to_string(row.opcode);
      os << '"' << name << "\"," << pc << ',' << mnemonic << ',' << row.executions;
      for (std::uint64_t c : row.warp_cycles) os << ',' << c;
      os << "\n";
    }
  }
}

}  // namespace warpsim::gpu
