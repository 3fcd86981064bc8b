#include "sim/mem/request_coalescer.h"

namespace warpsim::mem {

RequestCoalescer::RequestCoalescer(const RequestCoalescerConfig& config)
    : config_(config),
      slots_(config.entries),
      waiting_(std::size_t{config.entries} * config.followers) {}

RequestCoalescer::Slot& RequestCoalescer::slot(std::uint64_t line_address, std::uint32_t partition) {
  // Lines are 128-byte aligned; neighbouring lines of one partition take neighbouring slots.
  const std::uint64_t key = (line_address / kLineBytes) * 2654435761u + partition * 40503u;
  return slots_[static_cast<std::size_t>((key ^ (key >> 17)) % slots_.size())];
}

void RequestCoalescer::lead(const MemRequest& request, std::uint32_t partition, engine::Cycle now) {
  if (slots_.empty()) return;
  Slot& s = slot(request.line_address, partition);
  // A slot is free when unused or past its leader's answer; one still waiting is kept.
  if (s.used && (s.ready == kUnknown || s.ready > now)) return;
  s = Slot{.line = request.line_address,
           .leader_id = request.id,
           .ready = kUnknown,
           .leader_sm = request.source_sm,
           .partition = partition,
           .waiting = 0,
           .sectors = request.sector_mask,
           .used = true};
}

void RequestCoalescer::close(std::uint64_t line_address) {
  if (slots_.empty()) return;
  for (std::uint32_t p = 0; p < config_.partitions; ++p) {
    Slot& s = slot(line_address, p);
    if (s.used && s.line == line_address && s.partition == p) s.sectors = 0;
  }
}

}  // namespace warpsim::mem
