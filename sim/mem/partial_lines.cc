#include "sim/mem/partial_lines.h"

#include <algorithm>

#include "arch/error.h"
#include "sim/mem/mem_request.h"

namespace warpsim::mem {

PartialLines::PartialLines(const PartialLinesConfig& config, const std::string& field) {
  if (config.entries == 0) return;
  if (config.ways == 0 || config.entries % config.ways != 0) {
    throw InputError(field + ".ways: expected a divisor of the " +
                     std::to_string(config.entries) + " entries, got " +
                     std::to_string(config.ways));
  }
  ways_ = config.ways;
  sets_ = config.entries / config.ways;
  line_index_ = config.line_index;
  keeps_complete_ = config.keeps_complete;
  random_victim_ = config.random_victim;
  run_lines_ = config.run_lines;
  chunk_lines_ = std::max<std::uint32_t>(1, config.chunk_lines);
  entries_.resize(config.entries);
}

std::uint8_t PartialLines::partial_mask(const Entry& e) {
  std::uint8_t mask = 0;
  for (std::uint32_t s = 0; s < kSectorsPerLine; ++s) {
    if (e.bytes[s] != 0 && e.bytes[s] < kSectorBytes) {
      mask = static_cast<std::uint8_t>(mask | 1u << s);
    }
  }
  return mask;
}

std::uint32_t PartialLines::set_of(std::uint64_t line_address) const {
  if (line_index_) {
    const std::uint64_t line = line_address >> 7;
    const std::uint64_t in_slice =
        run_lines_ == 0 ? line : line / run_lines_ * chunk_lines_ + line % chunk_lines_;
    return static_cast<std::uint32_t>(in_slice % sets_);
  }
  // A 64-bit finaliser (murmur3's): the record's index is not the L2's, and lines a power of
  // two apart spread as evenly as random ones.
  std::uint64_t h = line_address >> 7;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return static_cast<std::uint32_t>(h % sets_);
}

PartialLines::Entry* PartialLines::find(std::uint64_t line_address) {
  Entry* set = &entries_[static_cast<std::size_t>(set_of(line_address)) * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (set[w].used && set[w].line_address == line_address) return &set[w];
  }
  return nullptr;
}

PartialDisplaced PartialLines::write(std::uint64_t line_address, std::uint8_t partial,
                                     std::uint32_t bytes_each, std::uint8_t full,
                                     std::uint8_t valid) {
  PartialDisplaced out;
  if (sets_ == 0) return out;
  Entry* e = find(line_address);
  // Sectors this store leaves written in part: new ones (not valid before) and recorded ones.
  const std::uint8_t recorded = e != nullptr ? partial_mask(*e) : 0;
  const auto starts = static_cast<std::uint8_t>(partial & ~full & ~valid & ~recorded);
  if (e == nullptr && starts == 0) return out;
  if (e == nullptr) {
    Entry* set = &entries_[static_cast<std::size_t>(set_of(line_address)) * ways_];
    Entry* victim = &set[0];
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (!set[w].used) {
        victim = &set[w];
        break;
      }
      if (set[w].stamp < victim->stamp) victim = &set[w];
    }
    if (random_victim_ && victim->used) {
      // Fibonacci hashing of the write count: a fixed sequence of draws, the same in every run.
      const std::uint64_t h = (clock_ + 1) * 0x9E3779B97F4A7C15ULL;
      victim = &set[(h >> 32) % ways_];
    }
    if (victim->used) {
      const std::uint8_t mask = partial_mask(*victim);
      if (mask != 0) out = {true, victim->line_address, mask};
      --size_;
    }
    *victim = Entry{.line_address = line_address, .used = true};
    ++size_;
    e = victim;
  }
  e->stamp = ++clock_;
  const auto add = static_cast<std::uint8_t>(starts | (partial & recorded));
  for (std::uint32_t s = 0; s < kSectorsPerLine; ++s) {
    const std::uint32_t bit = 1u << s;
    if ((full & bit) != 0) {
      e->bytes[s] = kSectorBytes;
    } else if ((add & bit) != 0) {
      e->bytes[s] = static_cast<std::uint8_t>(std::min<std::uint32_t>(kSectorBytes,
                                                                       e->bytes[s] + bytes_each));
    }
  }
  if (partial_mask(*e) == 0 && !keeps_complete_) {
    e->used = false;
    --size_;
  }
  return out;
}

std::uint8_t PartialLines::take(std::uint64_t line_address) {
  if (sets_ == 0) return 0;
  Entry* e = find(line_address);
  if (e == nullptr) return 0;
  const std::uint8_t mask = partial_mask(*e);
  e->used = false;
  --size_;
  return mask;
}

void PartialLines::end_kernel() {
  for (Entry& e : entries_) {
    if (e.used && partial_mask(e) == 0) {
      e.used = false;
      --size_;
    }
  }
}

}  // namespace warpsim::mem
