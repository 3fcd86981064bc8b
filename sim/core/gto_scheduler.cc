// Greedy-then-oldest: the warp issued last keeps issuing while eligible; otherwise the oldest
// eligible warp (the one resident longest) issues. "gto_drawn" ranks the warps by a priority drawn
// for each when it becomes resident instead of by their order of arrival.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/core/warp_scheduler.h"
#include "sim/mem/split_mix64.h"

namespace warpsim::core {
namespace {

class GtoScheduler final : public WarpScheduler {
 public:
  explicit GtoScheduler(bool drawn) : drawn_(drawn) { by_age_.reserve(kMaxWarpsPerSm); }

  void add_warp(int slot) override {
    resident_ |= WarpMask{1} << slot;
    if (!drawn_) {
      by_age_.push_back(slot);
      return;
    }
    const std::uint64_t rank = draws_.next();
    rank_[static_cast<std::size_t>(slot)] = rank;
    by_age_.insert(std::find_if(by_age_.begin(), by_age_.end(),
                                [&](int s) { return rank_[static_cast<std::size_t>(s)] > rank; }),
                   slot);
  }
  void remove_warp(int slot) override {
    by_age_.erase(std::find(by_age_.begin(), by_age_.end(), slot));
    resident_ &= ~(WarpMask{1} << slot);
    if (greedy_ == slot) greedy_ = -1;
  }
  int pick(WarpMask eligible) override {
    if (greedy_ >= 0 && ((eligible >> greedy_) & 1u) != 0) return greedy_;
    for (int slot : by_age_) {
      if (((eligible >> slot) & 1u) != 0) return slot;
    }
    return -1;
  }
  void issued(int slot) override { greedy_ = slot; }
  void seed(std::uint64_t seed) override { draws_ = mem::SplitMix64(seed); }
  WarpMask issuable() const override { return resident_; }

 private:
  bool drawn_;
  std::vector<int> by_age_;  // resident slots, first to issue first
  std::uint64_t rank_[kMaxWarpsPerSm] = {};  // gto_drawn: each resident slot's drawn priority
  mem::SplitMix64 draws_{0};
  WarpMask resident_ = 0;
  int greedy_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_gto_scheduler(const SmConfig&) {
  return std::make_unique<GtoScheduler>(false);
}

std::unique_ptr<WarpScheduler> make_gto_drawn_scheduler(const SmConfig&) {
  return std::make_unique<GtoScheduler>(true);
}

}  // namespace warpsim::core
