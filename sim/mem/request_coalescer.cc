#include "sim/mem/request_coalescer.h"

namespace warpsim::mem {

RequestCoalescer::RequestCoalescer(const RequestCoalescerConfig& config)
    : config_(config),
      slots_(config.entries),
      waiting_(std::size_t{config.entries} * config.followers) {}

RequestCoalescer::Slot& RequestCoalescer::slot(std::uint64_t line_address,
                                               std::uint32_t source) {
  // Lines are 128-byte aligned; neighbouring lines of one source take neighbouring slots.
  const std::uint64_t key = (line_address / kLineBytes) * 2654435761u + source * 40503u;
  return slots_[static_cast<std::size_t>((key ^ (key >> 17)) % slots_.size())];
}

void RequestCoalescer::lead(const MemRequest& request, std::uint32_t source, engine::Cycle now) {
  if (slots_.empty()) return;
  Slot& s = slot(request.line_address, source);
  // A slot is free when unused or past its leader's answer; one still waiting is kept, unless it
  // is full and of this read's line: then its group waits aside and this read leads the next.
  if (s.used && (s.ready == kUnknown || s.ready > now)) {
    if (s.ready != kUnknown || s.line != request.line_address || s.source != source ||
        s.waiting < config_.followers || config_.followers == 0) {
      return;
    }
    park(s);
  }
  s = Slot{.line = request.line_address,
           .leader_id = request.id,
           .ready = kUnknown,
           .leader_sm = request.source_sm,
           .source = source,
           .waiting = 0,
           .sectors = request.sector_mask,
           .used = true};
}

void RequestCoalescer::park(Slot& s) {
  std::size_t g = 0;
  while (g < parked_.size() && parked_[g].used) ++g;
  if (g == parked_.size()) {
    parked_.emplace_back();
    parked_waiting_.resize(parked_.size() * config_.followers);
  }
  parked_[g] = Parked{.line = s.line,
                      .leader_id = s.leader_id,
                      .leader_sm = s.leader_sm,
                      .source = s.source,
                      .used = true};
  const std::size_t from = index(s) * config_.followers;
  const std::size_t to = g * config_.followers;
  for (std::uint32_t i = 0; i < config_.followers; ++i) {
    parked_waiting_[to + i] = waiting_[from + i];
  }
  s.waiting = 0;
  ++parked_count_;
}

void RequestCoalescer::close(std::uint64_t line_address) {
  if (slots_.empty()) return;
  for (std::uint32_t p = 0; p < config_.sources; ++p) {
    Slot& s = slot(line_address, p);
    if (s.used && s.line == line_address && s.source == p) s.sectors = 0;
  }
}

}  // namespace warpsim::mem
