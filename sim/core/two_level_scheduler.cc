// Two-level scheduling: an active set of N warps issues round robin; a warp that stalls on an
// L1TEX dependency moves to the back of the pending queue and the oldest pending warp becomes
// active.
#include <algorithm>
#include <bit>
#include <vector>

#include "sim/core/warp_scheduler.h"

namespace warpsim::core {
namespace {

class TwoLevelScheduler final : public WarpScheduler {
 public:
  explicit TwoLevelScheduler(int active_size) : active_size_(active_size) {
    pending_.reserve(kMaxWarpsPerSm);
  }

  void add_warp(int slot) override {
    pending_.push_back(slot);
    refill();
  }
  void remove_warp(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    if ((active_ & bit) != 0) {
      active_ &= ~bit;
    } else {
      pending_.erase(std::find(pending_.begin(), pending_.end(), slot));
    }
    refill();
  }
  int pick(WarpMask eligible) override {
    const WarpMask candidates = eligible & active_;
    if (candidates == 0) return -1;
    return next_in_turn(candidates, last_);
  }
  void issued(int slot) override { last_ = slot; }
  void long_stall(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    if ((active_ & bit) == 0 || pending_.empty()) return;
    active_ &= ~bit;
    pending_.push_back(slot);
    refill();
  }
  WarpMask issuable() const override { return active_; }

 private:
  void refill() {
    while (std::popcount(active_) < active_size_ && !pending_.empty()) {
      active_ |= WarpMask{1} << pending_.front();
      pending_.erase(pending_.begin());
    }
  }

  int active_size_;
  WarpMask active_ = 0;
  std::vector<int> pending_;  // oldest first
  int last_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_two_level_scheduler(const SmConfig& config) {
  return std::make_unique<TwoLevelScheduler>(config.two_level_active_warps);
}

}  // namespace warpsim::core
