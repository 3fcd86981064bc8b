#include "sim/gpu/timeline.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace warpsim::gpu {

// One SM's events, kept compactly until write().
class Timeline::SmRecorder final : public core::Observer {
 public:
  enum class Kind : std::uint8_t { kIssue, kStall, kLaunch, kRetire, kReconverge };
  struct Event {
    Kind kind;
    std::uint8_t reason;
    std::uint16_t opcode;
    std::int32_t slot;
    std::uint32_t pc;
    std::uint64_t start;
    std::uint64_t cycles;
    std::uint64_t mask;
    const traces::OpcodeTable* opcodes;
  };

  SmRecorder(const Timeline& owner, std::uint64_t cap) : owner_(owner), cap_(cap) {}

  void on_issue(const core::IssueEvent& e) override {
    push({Kind::kIssue, 0, e.opcode, e.warp_slot, e.pc, e.cycle, 1, e.mask, owner_.opcodes_});
  }
  void on_stall(const core::StallEvent& e) override {
    push({Kind::kStall, static_cast<std::uint8_t>(e.reason), 0, e.warp_slot, 0, e.start, e.cycles,
          0, nullptr});
  }
  void on_cta_launch(const core::CtaEvent& e) override {
    push({Kind::kLaunch, 0, 0, e.cta_slot, e.index.x, e.cycle, e.warps,
          (std::uint64_t{e.index.y} << 32) | e.index.z, nullptr});
  }
  void on_cta_retire(const core::CtaEvent& e) override {
    push({Kind::kRetire, 0, 0, e.cta_slot, e.index.x, e.cycle, e.warps,
          (std::uint64_t{e.index.y} << 32) | e.index.z, nullptr});
  }
  void on_reconvergence(const core::ReconvergenceEvent& e) override {
    push({Kind::kReconverge, 0, e.opcode, e.warp_slot, e.pc, e.cycle, 0, e.mask,
          owner_.opcodes_});
  }

  const std::vector<Event>& events() const { return events_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  void push(const Event& e) {
    if (events_.size() >= cap_) {
      ++dropped_;
      return;
    }
    events_.push_back(e);
  }
  const Timeline& owner_;
  std::uint64_t cap_;
  std::vector<Event> events_;
  std::uint64_t dropped_ = 0;
};

Timeline::Timeline(int sms, double sm_mhz, std::uint64_t max_events) : sm_mhz_(sm_mhz) {
  max_events_per_sm_ = std::max<std::uint64_t>(1, max_events / std::max(1, sms));
  for (int s = 0; s < sms; ++s) {
    recorders_.push_back(std::make_unique<SmRecorder>(*this, max_events_per_sm_));
  }
}

Timeline::~Timeline() = default;

core::Observer& Timeline::observer(int sm) { return *recorders_.at(static_cast<size_t>(sm)); }

void Timeline::start_kernel(const std::string& name,
                            std::shared_ptr<const traces::OpcodeTable> opcodes,
                            std::uint64_t start_cycle) {
  opcodes_ = opcodes.get();
  tables_.push_back(std::move(opcodes));
  kernels_.emplace_back(name, start_cycle);
}

std::uint64_t Timeline::recorded() const {
  std::uint64_t n = 0;
  for (const auto& r : recorders_) n += r->events().size();
  return n;
}

std::uint64_t Timeline::dropped() const {
  std::uint64_t n = 0;
  for (const auto& r : recorders_) n += r->dropped();
  return n;
}

namespace {

// JSON string escaping for names (mnemonics and kernel names: printable ASCII in practice).
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void Timeline::write(std::ostream& os) const {
  const auto us = [&](std::uint64_t cycles) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(cycles) / sm_mhz_);
    return std::string(buf);
  };
  os << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"warpsim\",\"dropped_events\":"
     << dropped() << "},\"traceEvents\":[\n";
  bool first = true;
  const auto sep = [&]() -> std::ostream& {
    if (!first) os << ",\n";
    first = false;
    return os;
  };
  for (const auto& [name, cycle] : kernels_) {
    sep() << "{\"name\":\"kernel " << escape(name) << "\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,"
          << "\"tid\":0,\"ts\":" << us(cycle) << "}";
  }
  for (size_t sm = 0; sm < recorders_.size(); ++sm) {
    const auto& events = recorders_[sm]->events();
    if (events.empty()) continue;
    sep() << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << sm
          << ",\"args\":{\"name\":\"SM " << sm << "\"}}";
    std::vector<int> slots;
    for (const auto& e : events) {
      if (e.kind != SmRecorder::Kind::kLaunch && e.kind != SmRecorder::Kind::kRetire) {
        slots.push_back(e.slot);
      }
    }
    std::sort(slots.begin(), slots.end());
    slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
    for (int slot : slots) {
      sep() << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" << sm << ",\"tid\":" << slot + 1
            << ",\"args\":{\"name\":\"warp slot " << slot << "\"}}";
    }
    for (const auto& e : events) {
      const auto mnemonic = [&] {
        return e.opcodes != nullptr && e.opcode < e.opcodes->size()
                   ? escape(e.opcodes->info(e.opcode).mnemonic)
                   : std::string("op") + std::to_string(e.opcode);
      };
      char mask[24];
      std::snprintf(mask, sizeof mask, "0x%llx", static_cast<unsigned long long>(e.mask));
      switch (e.kind) {
        case SmRecorder::Kind::kIssue:
          sep() << "{\"name\":\"" << mnemonic() << "\",\"cat\":\"issue\",\"ph\":\"X\",\"pid\":"
                << sm << ",\"tid\":" << e.slot + 1 << ",\"ts\":" << us(e.start)
                << ",\"dur\":" << us(e.cycles) << ",\"args\":{\"pc\":" << e.pc
                << ",\"mask\":\"" << mask << "\"}}";
          break;
        case SmRecorder::Kind::kStall:
          sep() << "{\"name\":\""
                << core::stall_reason_name(static_cast<core::StallReason>(e.reason))
                << "\",\"cat\":\"stall\",\"ph\":\"X\",\"pid\":" << sm << ",\"tid\":" << e.slot + 1
                << ",\"ts\":" << us(e.start) << ",\"dur\":" << us(e.cycles) << "}";
          break;
        case SmRecorder::Kind::kLaunch:
        case SmRecorder::Kind::kRetire:
          sep() << "{\"name\":\"CTA (" << e.pc << "," << (e.mask >> 32) << ","
                << (e.mask & 0xFFFFFFFFu) << ") "
                << (e.kind == SmRecorder::Kind::kLaunch ? "launch" : "retire")
                << "\",\"cat\":\"cta\",\"ph\":\"i\",\"s\":\"p\",\"pid\":" << sm
                << ",\"tid\":0,\"ts\":" << us(e.start) << ",\"args\":{\"slot\":" << e.slot
                << ",\"warps\":" << e.cycles << "}}";
          break;
        case SmRecorder::Kind::kReconverge:
          sep() << "{\"name\":\"" << mnemonic() << "\",\"cat\":\"reconvergence\",\"ph\":\"i\","
                << "\"s\":\"t\",\"pid\":" << sm << ",\"tid\":" << e.slot + 1
                << ",\"ts\":" << us(e.start) << ",\"args\":{\"pc\":" << e.pc << ",\"mask\":\""
                << mask << "\"}}";
          break;
      }
    }
  }
  os << "\n]}\n";
}

}  // namespace warpsim::gpu
