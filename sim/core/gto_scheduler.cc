// Greedy-then-oldest: the warp issued last keeps issuing while eligible; otherwise the oldest
// eligible warp (the one resident longest) issues. "gto_drawn" ranks the warps by their CTA's drawn
// priority first, then by arrival.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/core/warp_scheduler.h"

namespace warpsim::core {
namespace {

class GtoScheduler final : public WarpScheduler {
 public:
  explicit GtoScheduler(bool drawn) : drawn_(drawn) { by_age_.reserve(kMaxWarpsPerSm); }

  // Under launch order every CTA has priority 0, so a warp goes after every resident one.
  void add_warp(int slot) override {
    resident_ |= WarpMask{1} << slot;
    rank_[static_cast<std::size_t>(slot)] = cta_priority_;
    by_age_.insert(std::find_if(by_age_.begin(), by_age_.end(),
                                [&](int s) {
                                  return rank_[static_cast<std::size_t>(s)] > cta_priority_;
                                }),
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
  void cta_priority(std::uint64_t priority) override {
    if (drawn_) cta_priority_ = priority;
  }
  WarpMask issuable() const override { return resident_; }

 private:
  bool drawn_;
  std::vector<int> by_age_;  // resident slots, first to issue first
  std::uint64_t rank_[kMaxWarpsPerSm] = {};  // each resident slot's CTA priority (gto: 0)
  std::uint64_t cta_priority_ = 0;           // that of the CTA arriving
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
