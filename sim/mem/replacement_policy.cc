#include "sim/mem/replacement_policy.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/mem/split_mix64.h"

namespace warpsim::mem {
namespace {

class LruPolicy : public ReplacementPolicy {
 public:
  explicit LruPolicy(const ReplacementConfig& c)
      : ways_(c.ways), stamps_(std::size_t{c.sets} * c.ways, 0) {}
  void on_hit(std::uint32_t set, std::uint32_t way) override { stamps_[at(set, way)] = ++clock_; }
  void on_fill(std::uint32_t set, std::uint32_t way) override { stamps_[at(set, way)] = ++clock_; }
  std::uint32_t victim(std::uint32_t set) override {
    std::uint32_t best = 0;
    for (std::uint32_t w = 1; w < ways_; ++w) {
      if (stamps_[at(set, w)] < stamps_[at(set, best)]) best = w;
    }
    return best;
  }
  std::uint32_t victim_among(std::uint32_t set, std::uint64_t candidates) override {
    auto best = static_cast<std::uint32_t>(std::countr_zero(candidates));
    for (std::uint64_t m = candidates & (candidates - 1); m != 0; m &= m - 1) {
      const auto w = static_cast<std::uint32_t>(std::countr_zero(m));
      if (stamps_[at(set, w)] < stamps_[at(set, best)]) best = w;
    }
    return best;
  }

 protected:
  std::size_t at(std::uint32_t set, std::uint32_t way) const {
    return std::size_t{set} * ways_ + way;
  }
  std::uint32_t ways_;
  std::vector<std::uint64_t> stamps_;
  std::uint64_t clock_ = 0;
};

/// LRU ages, a uniform pick among the `candidates` oldest ways of the set.
class RandomLruPolicy final : public LruPolicy {
 public:
  explicit RandomLruPolicy(const ReplacementConfig& c)
      : LruPolicy(c), candidates_(c.candidates == 0 ? std::max(1u, c.ways / 2) : c.candidates),
        random_(c.seed) {}
  std::uint32_t victim(std::uint32_t set) override {
    // The rank-th least recently used way, rank uniform below the candidate count: select the
    // oldest way rank + 1 times, each time above the previous stamp (a full set's stamps are
    // distinct and nonzero).
    const auto rank = static_cast<std::uint32_t>(random_.next() % candidates_);
    std::uint64_t floor = 0;
    std::uint32_t pick = 0;
    for (std::uint32_t r = 0; r <= rank; ++r) {
      std::uint64_t best = ~std::uint64_t{0};
      for (std::uint32_t w = 0; w < ways_; ++w) {
        const std::uint64_t stamp = stamps_[at(set, w)];
        if (stamp > floor && stamp < best) {
          best = stamp;
          pick = w;
        }
      }
      floor = best;
    }
    return pick;
  }

 private:
  std::uint32_t candidates_;
  SplitMix64 random_;
};

class RandomPolicy final : public ReplacementPolicy {
 public:
  explicit RandomPolicy(const ReplacementConfig& c) : ways_(c.ways), random_(c.seed) {}
  void on_hit(std::uint32_t, std::uint32_t) override {}
  void on_fill(std::uint32_t, std::uint32_t) override {}
  std::uint32_t victim(std::uint32_t) override {
    return static_cast<std::uint32_t>(random_.next() % ways_);
  }
  std::uint32_t victim_among(std::uint32_t, std::uint64_t candidates) override {
    // The k-th set bit of the mask, k uniform.
    const auto count = static_cast<std::uint64_t>(std::popcount(candidates));
    auto k = static_cast<int>(random_.next() % count);
    std::uint64_t m = candidates;
    for (; k > 0; --k) m &= m - 1;
    return static_cast<std::uint32_t>(std::countr_zero(m));
  }

 private:
  std::uint32_t ways_;
  SplitMix64 random_;
};

class SrripPolicy final : public ReplacementPolicy {
 public:
  static constexpr std::uint8_t kMax = 3;
  explicit SrripPolicy(const ReplacementConfig& c)
      : ways_(c.ways), rrpv_(std::size_t{c.sets} * c.ways, kMax) {}
  void on_hit(std::uint32_t set, std::uint32_t way) override { rrpv_[at(set, way)] = 0; }
  void on_fill(std::uint32_t set, std::uint32_t way) override { rrpv_[at(set, way)] = kMax - 1; }
  std::uint32_t victim(std::uint32_t set) override {
    for (;;) {
      for (std::uint32_t w = 0; w < ways_; ++w) {
        if (rrpv_[at(set, w)] == kMax) return w;
      }
      for (std::uint32_t w = 0; w < ways_; ++w) ++rrpv_[at(set, w)];
    }
  }
  std::uint32_t victim_among(std::uint32_t set, std::uint64_t candidates) override {
    // The most distant predicted re-reference, lowest way on ties; no ageing.
    auto best = static_cast<std::uint32_t>(std::countr_zero(candidates));
    for (std::uint64_t m = candidates & (candidates - 1); m != 0; m &= m - 1) {
      const auto w = static_cast<std::uint32_t>(std::countr_zero(m));
      if (rrpv_[at(set, w)] > rrpv_[at(set, best)]) best = w;
    }
    return best;
  }

 private:
  std::size_t at(std::uint32_t set, std::uint32_t way) const {
    return std::size_t{set} * ways_ + way;
  }
  std::uint32_t ways_;
  std::vector<std::uint8_t> rrpv_;
};

/// Tree pseudo-LRU over a power-of-two number of ways: one bit per inner node of a binary tree
/// (heap order, root 1), pointing to the half that goes next; a use turns the bits on its path
/// away from itself.
class TreePlruPolicy final : public ReplacementPolicy {
 public:
  explicit TreePlruPolicy(const ReplacementConfig& c)
      : ways_(c.ways), bits_(std::size_t{c.sets} * c.ways, 0) {}
  void on_hit(std::uint32_t set, std::uint32_t way) override { touch(set, way); }
  void on_fill(std::uint32_t set, std::uint32_t way) override { touch(set, way); }
  std::uint32_t victim(std::uint32_t set) override {
    return victim_among(set, ways_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways_) - 1);
  }
  std::uint32_t victim_among(std::uint32_t set, std::uint64_t candidates) override {
    // Follow the bits, turning aside where the pointed half holds no candidate.
    const std::uint8_t* node = &bits_[std::size_t{set} * ways_];
    std::uint32_t n = 1;
    std::uint32_t lo = 0;
    for (std::uint32_t span = ways_ / 2; span >= 1; span /= 2) {
      const std::uint64_t left = ((std::uint64_t{1} << span) - 1) << lo;
      const bool right = node[n] != 0 ? (candidates & (left << span)) != 0
                                      : (candidates & left) == 0;
      n = 2 * n + (right ? 1 : 0);
      if (right) lo += span;
    }
    return lo;
  }

 private:
  void touch(std::uint32_t set, std::uint32_t way) {
    std::uint8_t* node = &bits_[std::size_t{set} * ways_];
    std::uint32_t n = 1;
    std::uint32_t lo = 0;
    for (std::uint32_t span = ways_ / 2; span >= 1; span /= 2) {
      const bool right = way >= lo + span;
      node[n] = right ? 0 : 1;  // point away from the used half
      n = 2 * n + (right ? 1 : 0);
      if (right) lo += span;
    }
  }
  std::uint32_t ways_;
  std::vector<std::uint8_t> bits_;  // per set, nodes 1 .. ways-1 (index 0 unused)
};

}  // namespace

ReplacementPolicy::~ReplacementPolicy() = default;

PolicyRegistry<ReplacementPolicy, const ReplacementConfig&>& replacement_policy_registry() {
  static PolicyRegistry<ReplacementPolicy, const ReplacementConfig&> registry = [] {
    PolicyRegistry<ReplacementPolicy, const ReplacementConfig&> r("replacement policy");
    r.add("lru", [](const ReplacementConfig& c) { return std::make_unique<LruPolicy>(c); });
    r.add("random", [](const ReplacementConfig& c) { return std::make_unique<RandomPolicy>(c); });
    r.add("tree_plru", [](const ReplacementConfig& c) {
      if (c.ways < 2 || !std::has_single_bit(c.ways)) {
        throw InputError("tree_plru: expected a power-of-two number of ways of at least 2, got " +
                         std::to_string(c.ways));
      }
      return std::make_unique<TreePlruPolicy>(c);
    });
    r.add("srrip", [](const ReplacementConfig& c) { return std::make_unique<SrripPolicy>(c); });
    r.add("random_lru",
          [](const ReplacementConfig& c) { return std::make_unique<RandomLruPolicy>(c); });
    return r;
  }();
  return registry;
}

std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name,
                                                           const ReplacementConfig& config,
                                                           std::string_view field) {
  return replacement_policy_registry().create(name, field, config);
}

}  // namespace warpsim::mem
