#include "sim/mem/cache_tags.h"

#include <bit>
#include <cmath>
#include <utility>

#include "arch/error.h"
#include "sim/mem/mem_request.h"

namespace warpsim::mem {

CacheTags::CacheTags(const CacheTagsConfig& config, const std::string& field) {
  if (config.ways == 0) throw InputError(field + ".ways: expected at least 1 way, got 0");
  const std::uint64_t set_bytes = std::uint64_t{config.ways} * kLineBytes;
  if (config.size_bytes == 0 || config.size_bytes % set_bytes != 0) {
    throw InputError(field + ".size_bytes: expected a positive multiple of ways x 128 (" +
                     std::to_string(set_bytes) + ") bytes, got " +
                     std::to_string(config.size_bytes));
  }
  const std::uint64_t sets = config.size_bytes / set_bytes;
  if (sets > UINT32_MAX) {
    throw InputError(field + ".size_bytes: too many sets (" + std::to_string(sets) + ")");
  }
  if (config.index_divisor == 0) {
    throw InputError(field + ".index_divisor: expected at least 1, got 0");
  }
  if (config.ways > 64) {
    throw InputError(field + ".ways: expected at most 64 ways, got " + std::to_string(config.ways));
  }
  if (config.max_dirty_ways >= config.ways) {
    throw InputError(field + ".max_dirty_ways: expected fewer than the " +
                     std::to_string(config.ways) + " ways (0: no limit), got " +
                     std::to_string(config.max_dirty_ways));
  }
  max_dirty_ = config.max_dirty_ways;
  if (!(config.dirty_victim_skip >= 0.0 && config.dirty_victim_skip < 1.0)) {
    throw InputError(field + ".dirty_victim_skip: expected at least 0 and below 1, got " +
                     std::to_string(config.dirty_victim_skip));
  }
  skip_threshold_ = static_cast<std::uint64_t>(std::ldexp(config.dirty_victim_skip, 64));
  skip_stream_ = SplitMix64(config.seed ^ 0x5DEECE66DULL);
  sets_ = static_cast<std::uint32_t>(sets);
  divisor_ = config.index_divisor;
  if (config.xor_index) {
    if (!std::has_single_bit(sets_)) {
      throw InputError(field + ": an XOR-folded set index needs a power-of-two number of sets, got " +
                       std::to_string(sets_));
    }
    xor_bits_ = static_cast<std::uint32_t>(std::countr_zero(sets_));
  }
  rotated_ = config.rotated_index && xor_bits_ == 0;
  set_line_ = config.set_line;
  ways_ = config.ways;
  if (config.replacement_candidates > config.ways) {
    throw InputError(field + ".replacement_candidates: expected at most the " +
                     std::to_string(config.ways) + " ways (0: the policy's default), got " +
                     std::to_string(config.replacement_candidates));
  }
  if (config.replacement == "tree_plru" && !std::has_single_bit(ways_)) {
    throw InputError(field + ".ways: the tree_plru replacement needs a power-of-two number of " +
                     "ways, got " +
                     std::to_string(ways_));
  }
  policy_ = make_replacement_policy(config.replacement,
                                    {.sets = sets_,
                                     .ways = ways_,
                                     .seed = config.seed,
                                     .candidates = config.replacement_candidates},
                                    field + ".replacement");
  ways_storage_.resize(std::size_t{sets_} * ways_);
}

CacheTags::~CacheTags() = default;
CacheTags::CacheTags(CacheTags&&) noexcept = default;
CacheTags& CacheTags::operator=(CacheTags&&) noexcept = default;

TagAccess CacheTags::access(std::uint64_t line_address, std::uint8_t sector_mask,
                            std::uint8_t dirty_mask) {
  const std::uint32_t set = set_of(line_address);
  Way* base = &ways_storage_[std::size_t{set} * ways_];
  TagAccess result;
  std::uint32_t empty = ways_;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    Way& way = base[w];
    if (way.valid_mask == 0) {
      if (empty == ways_) empty = w;
      continue;
    }
    if (way.line_address != line_address) continue;
    result.line_hit = true;
    result.hit_mask = way.valid_mask & sector_mask;
    const bool was_dirty = way.dirty_mask != 0;
    way.valid_mask |= sector_mask;
    way.dirty_mask |= dirty_mask;
    policy_->on_hit(set, w);
    if (max_dirty_ != 0 && dirty_mask != 0 && !was_dirty) limit_dirty(set, base, w, result);
    return result;
  }
  std::uint32_t target = empty;
  if (target == ways_) {
    target = pick_victim(set, base);
    const Way& victim = base[target];
    result.evicted = true;
    result.victim = {victim.line_address, victim.valid_mask, victim.dirty_mask};
  }
  base[target] = {line_address, static_cast<std::uint8_t>(sector_mask | dirty_mask), dirty_mask};
  policy_->on_fill(set, target);
  if (max_dirty_ != 0 && dirty_mask != 0) limit_dirty(set, base, target, result);
  return result;
}

std::uint32_t CacheTags::pick_victim(std::uint32_t set, const Way* base) {
  const std::uint32_t first = policy_->victim(set);
  if (skip_threshold_ == 0) return first;
  const auto skip = [this] { return skip_stream_.next() < skip_threshold_; };  // chance p
  if (base[first].dirty_mask == 0 || !skip()) return first;
  std::uint64_t left = (ways_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways_) - 1) &
                       ~(std::uint64_t{1} << first);
  while (left != 0) {
    const std::uint32_t w = policy_->victim_among(set, left);
    if (base[w].dirty_mask == 0 || !skip()) return w;
    left &= ~(std::uint64_t{1} << w);
  }
  return first;
}

void CacheTags::limit_dirty(std::uint32_t set, Way* base, std::uint32_t keep, TagAccess& result) {
  std::uint64_t others = 0;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (w != keep && base[w].dirty_mask != 0) others |= std::uint64_t{1} << w;
  }
  if (static_cast<std::uint32_t>(std::popcount(others)) < max_dirty_) return;
  const std::uint32_t w = policy_->victim_among(set, others);
  result.cleaned = true;
  result.written_back = {base[w].line_address, base[w].valid_mask, base[w].dirty_mask};
  base[w].dirty_mask = 0;
}

LineState CacheTags::probe(std::uint64_t line_address) const {
  const std::uint32_t set = set_of(line_address);
  const Way* base = &ways_storage_[std::size_t{set} * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (base[w].valid_mask != 0 && base[w].line_address == line_address) {
      return {line_address, base[w].valid_mask, base[w].dirty_mask};
    }
  }
  return {line_address, 0, 0};
}

std::vector<LineState> CacheTags::contents() const {
  std::vector<LineState> out;
  for (const Way& way : ways_storage_) {
    if (way.valid_mask != 0) out.push_back({way.line_address, way.valid_mask, way.dirty_mask});
  }
  return out;
}

CacheTags::Way* CacheTags::find_way(std::uint64_t line_address) {
  const std::uint64_t line = line_address & ~std::uint64_t{127};
  Way* set = &ways_storage_[std::size_t{set_of(line)} * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (set[w].valid_mask != 0 && set[w].line_address == line) return &set[w];
  }
  return nullptr;
}

LineState CacheTags::invalidate(std::uint64_t line_address) {
  Way* way = find_way(line_address);
  if (way == nullptr) return {};
  const LineState state{way->line_address, way->valid_mask, way->dirty_mask};
  *way = Way{};
  return state;
}

LineState CacheTags::clean(std::uint64_t line_address, std::uint8_t sectors) {
  Way* way = find_way(line_address);
  if (way == nullptr) return {};
  const LineState state{way->line_address, way->valid_mask,
                        static_cast<std::uint8_t>(way->dirty_mask & sectors)};
  way->dirty_mask = static_cast<std::uint8_t>(way->dirty_mask & ~sectors);
  return state;
}

void CacheTags::validate(std::uint64_t line_address, std::uint8_t sectors) {
  Way* way = find_way(line_address);
  if (way != nullptr) way->valid_mask = static_cast<std::uint8_t>(way->valid_mask | sectors);
}

void CacheTags::invalidate_all() {
  for (Way& way : ways_storage_) way = Way{};
}

}  // namespace warpsim::mem
