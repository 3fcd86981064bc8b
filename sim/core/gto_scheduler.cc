// Greedy-then-oldest: the warp issued last keeps issuing while eligible; otherwise the oldest
// eligible warp (the one resident longest) issues.
#include <algorithm>
#include <bit>
#include <vector>

#include "sim/core/warp_scheduler.h"

namespace warpsim::core {
namespace {

class GtoScheduler final : public WarpScheduler {
 public:
  GtoScheduler() { by_age_.reserve(kMaxWarpsPerSm); }

  void add_warp(int slot) override {
    by_age_.push_back(slot);
    resident_ |= WarpMask{1} << slot;
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
  WarpMask issuable() const override { return resident_; }

 private:
  std::vector<int> by_age_;  // resident slots, oldest first
  WarpMask resident_ = 0;
  int greedy_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_gto_scheduler(const SmConfig&) {
  return std::make_unique<GtoScheduler>();
}

}  // namespace warpsim::core
