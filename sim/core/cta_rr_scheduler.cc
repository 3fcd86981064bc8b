// CTAs in order, warps in turn: the scheduler ranks its warps' CTAs as greedy-then-oldest ranks
// warps ("cta_rr": by arrival; "cta_rr_drawn": by the CTA's drawn priority, then arrival). The
// first `shared_ctas` resident CTAs share the issue slots: their eligible warps issue round robin
// (the first after the one of them issued last, in slot order). Only when none of them has an
// eligible warp does a later CTA issue, the first-ranked one with an eligible warp (its warps
// again in turn). Warps of one CTA then share the issue slots and the pipes evenly, as the GH100's
// do (validate/reference/h200/mufu_rate.tsv: 8 warps a scheduler, each able to keep the MUFU busy
// alone, all finish within 5 %), while later CTAs wait their turn
// (validate/reference/h200/warp_finish_h100.tsv.gz).
// Left out: the GPU's lean toward the older of the shared CTAs (ffma_dependent, two CTAs an SM:
// 33.1 against 36.0 k cycles; here both end together), greedy issue, and whether the GPU shares
// between CTAs or between a number of warps (the probe's CTAs all had 256 threads).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/core/warp_scheduler.h"

namespace warpsim::core {
namespace {

class CtaRoundRobinScheduler final : public WarpScheduler {
 public:
  CtaRoundRobinScheduler(bool drawn, int shared_ctas) : drawn_(drawn), shared_(shared_ctas) {
    groups_.reserve(kMaxWarpsPerSm);
  }

  void add_warp(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    resident_ |= bit;
    auto it = std::find_if(groups_.begin(), groups_.end(),
                           [&](const Group& g) { return g.sequence == sequence_; });
    if (it == groups_.end()) {
      const Group g{priority_, sequence_, 0, -1};
      it = groups_.insert(std::find_if(groups_.begin(), groups_.end(),
                                       [&](const Group& o) { return g.before(o); }),
                          g);
    }
    it->warps |= bit;
  }
  void remove_warp(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    resident_ &= ~bit;
    for (auto it = groups_.begin(); it != groups_.end(); ++it) {
      if ((it->warps & bit) == 0) continue;
      it->warps &= ~bit;
      if (it->warps == 0) groups_.erase(it);
      return;
    }
  }
  int pick(WarpMask eligible) override {
    WarpMask shared = 0;
    for (std::size_t i = 0; i < groups_.size() && i < shared_; ++i) shared |= groups_[i].warps;
    const WarpMask m = shared & eligible;
    if (m != 0) return next_in_turn(m, last_shared_);
    for (std::size_t i = shared_; i < groups_.size(); ++i) {
      const WarpMask g = groups_[i].warps & eligible;
      if (g != 0) return next_in_turn(g, groups_[i].last);
    }
    return -1;
  }
  void issued(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    for (std::size_t i = 0; i < groups_.size(); ++i) {
      if ((groups_[i].warps & bit) == 0) continue;
      if (i < shared_) {
        last_shared_ = slot;
      } else {
        groups_[i].last = slot;
      }
      return;
    }
  }
  // Called once for each CTA that becomes resident, before its warps are added.
  void cta_priority(std::uint64_t priority) override {
    priority_ = drawn_ ? priority : 0;
    ++sequence_;
  }
  WarpMask issuable() const override { return resident_; }

 private:

  struct Group {
    std::uint64_t priority;  // drawn (cta_rr_drawn) or 0
    std::uint64_t sequence;  // arrival order of the CTA on this SM
    WarpMask warps;          // the CTA's resident warps on this scheduler
    int last;                // the CTA's warp issued last, -1 before its first
    bool before(const Group& o) const {
      return priority != o.priority ? priority < o.priority : sequence < o.sequence;
    }
  };
  bool drawn_;
  std::size_t shared_;         // CTAs sharing the issue slots in turn
  int last_shared_ = -1;       // the shared CTAs' warp issued last
  std::vector<Group> groups_;  // resident CTAs, first to issue first
  std::uint64_t priority_ = 0;
  std::uint64_t sequence_ = 0;
  WarpMask resident_ = 0;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_cta_rr_scheduler(const SmConfig& config) {
  return std::make_unique<CtaRoundRobinScheduler>(false, config.shared_ctas);
}

std::unique_ptr<WarpScheduler> make_cta_rr_drawn_scheduler(const SmConfig& config) {
  return std::make_unique<CtaRoundRobinScheduler>(true, config.shared_ctas);
}

}  // namespace warpsim::core
