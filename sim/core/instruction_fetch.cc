#include "sim/core/instruction_fetch.h"

#include <algorithm>
#include <string>

#include "arch/error.h"

namespace warpsim::core {

void validate(const InstructionFetchConfig& c) {
  const auto fail = [](const std::string& field, const std::string& what) {
    throw InputError("sm.instruction_fetch." + field + ": " + what);
  };
  if ((c.l0_bytes == 0) != (c.l1_bytes == 0)) {
    fail(c.l0_bytes == 0 ? "l0_bytes" : "l1_bytes",
         "expected both levels' sizes, or neither (no fetch modelled)");
  }
  if (c.l0_bytes == 0) return;
  if (c.ways == 0) fail("ways", "expected at least 1");
  for (const auto& [name, bytes] : {std::pair{"l0_bytes", c.l0_bytes}, {"l1_bytes", c.l1_bytes}}) {
    if (bytes % (InstructionFetch::kLineBytes * c.ways) != 0) {
      fail(name, "expected a multiple of 128-byte lines times the " + std::to_string(c.ways) +
                     " ways, got " + std::to_string(bytes));
    }
  }
  if (c.line_cycles == 0) fail("line_cycles", "expected at least 1");
}

InstructionFetch::Level::Level(std::uint32_t bytes, std::uint32_t ways)
    : sets_(bytes / kLineBytes / ways), ways_(ways), entries_(std::size_t{sets_} * ways) {}

const InstructionFetch::Entry* InstructionFetch::Level::find(std::uint64_t line) const {
  const Entry* set = &entries_[static_cast<std::size_t>(line % sets_) * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (set[w].line == line) return &set[w];
  }
  return nullptr;
}

void InstructionFetch::Level::insert(std::uint64_t line, engine::Cycle ready) {
  Entry* set = &entries_[static_cast<std::size_t>(line % sets_) * ways_];
  Entry* victim = set;
  for (std::uint32_t w = 1; w < ways_; ++w) {
    if (set[w].stamp < victim->stamp) victim = &set[w];
  }
  *victim = Entry{line, ready, ++stamp_};
}

InstructionFetch::InstructionFetch(const InstructionFetchConfig& config, int sub_partitions)
    : config_(config) {
  if (config.l0_bytes == 0) return;
  l0_.assign(static_cast<std::size_t>(sub_partitions), Level(config.l0_bytes, config.ways));
  l1_ = Level(config.l1_bytes, config.ways);
}

bool InstructionFetch::fetched_before(std::uint64_t line) {
  if (line < base_line_) return true;  // before the entry point: counted as the L2's
  const std::uint64_t bit = line - base_line_;
  if (bit >= (std::uint64_t{1} << 22)) return false;  // 512 MB past the entry: not code we track
  if (bit / 64 >= fetched_.size()) {
    // Code grows as warps reach it; a kernel's code is bounded by its trace.
    fetched_.resize(static_cast<std::size_t>(bit / 64 + 1) * 2, 0);
  }
  std::uint64_t& word = fetched_[static_cast<std::size_t>(bit / 64)];
  const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
  const bool before = (word & mask) != 0;
  word |= mask;
  return before;
}

engine::Cycle InstructionFetch::second_level(std::uint64_t line, engine::Cycle now) {
  if (const Entry* e = l1_.find(line)) return e->ready;
  const std::uint32_t spacing = fetched_before(line) || config_.cold_line_cycles == 0
                                    ? config_.line_cycles
                                    : config_.cold_line_cycles;
  const engine::Cycle ready = std::max(now + config_.miss_cycles, stream_free_ + spacing);
  stream_free_ = ready;
  l1_.insert(line, ready);
  return ready;
}

engine::Cycle InstructionFetch::enter(int smsp, std::uint64_t pc, engine::Cycle now) {
  const std::uint64_t line = pc / kLineBytes;
  if (!started_) {
    // The launch brings the kernel's first lines (the second level's capacity at most).
    started_ = true;
    base_line_ = line;
    const std::uint64_t lines =
        std::min(config_.launch_bytes, config_.l1_bytes) / std::uint64_t{kLineBytes};
    for (std::uint64_t l = 0; l < lines; ++l) {
      l1_.insert(line + l, 0);
      fetched_before(line + l);
    }
  }
  // The lines ahead, unless the farthest is there already (the stream then has them all).
  if (l1_.find(line + config_.prefetch_lines) == nullptr) {
    for (std::uint64_t ahead = 0; ahead <= config_.prefetch_lines; ++ahead) {
      second_level(line + ahead, now);
    }
  }
  Level& first = l0_[static_cast<std::size_t>(smsp)];
  engine::Cycle ready = now;
  for (std::uint64_t l = line; l <= line + 1; ++l) {
    if (const Entry* e = first.find(l)) {
      if (l == line) ready = e->ready;
      continue;
    }
    const engine::Cycle at =
        std::max(now, second_level(l, now)) + static_cast<engine::Cycle>(config_.l1_cycles);
    first.insert(l, at);
    if (l == line) ready = at;
  }
  return std::max(ready, now);
}

}  // namespace warpsim::core
