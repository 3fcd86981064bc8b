// CTAs in order, warps in turn: the scheduler ranks its warps' CTAs as greedy-then-oldest ranks
// warps ("cta_rr": by arrival; "cta_rr_drawn": by the CTA's drawn priority, then arrival), and
// within a CTA by slot. The first `shared_warps` warps in that order share the issue slots: their
// eligible warps issue round robin (the first after the one of them issued last, in slot order).
// Only when none of them is eligible does a later warp issue, from the first-ranked CTA with an
// eligible warp (its warps again in turn). The shared warps then split the issue slots and the
// pipes evenly, as the GH100's do (validate/reference/h200/mufu_rate.tsv: 8 warps a scheduler,
// each able to keep the MUFU busy alone, all finish within 5 %), while the later ones wait their
// turn: in validate/reference/h200/warp_finish_h100.tsv.gz four warps a scheduler share, whatever
// the CTA size (one CTA of 512 threads, two of 256, four of 128).
// Left out: the GPU's lean toward the older of the shared warps (ffma_dependent, two CTAs of 256
// threads an SM: 33.1 against 36.0 k cycles; here both end together) and greedy issue.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/core/warp_scheduler.h"

namespace warpsim::core {
namespace {

class CtaRoundRobinScheduler final : public WarpScheduler {
 public:
  CtaRoundRobinScheduler(bool drawn, int shared_warps) : drawn_(drawn), shared_(shared_warps) {
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
    update_shared();
  }
  void remove_warp(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    resident_ &= ~bit;
    for (auto it = groups_.begin(); it != groups_.end(); ++it) {
      if ((it->warps & bit) == 0) continue;
      it->warps &= ~bit;
      if (it->warps == 0) groups_.erase(it);
      update_shared();
      return;
    }
  }
  int pick(WarpMask eligible) override {
    const WarpMask m = shared_mask_ & eligible;
    if (m != 0) return next_in_turn(m, last_shared_);
    for (const Group& group : groups_) {
      const WarpMask g = group.warps & ~shared_mask_ & eligible;
      if (g != 0) return next_in_turn(g, group.last);
    }
    return -1;
  }
  void issued(int slot) override {
    const WarpMask bit = WarpMask{1} << slot;
    if ((shared_mask_ & bit) != 0) {
      last_shared_ = slot;
      return;
    }
    for (Group& group : groups_) {
      if ((group.warps & bit) != 0) {
        group.last = slot;
        return;
      }
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
  // The first shared_ warps in rank order (CTA by CTA, each CTA's by slot).
  void update_shared() {
    shared_mask_ = 0;
    int n = 0;
    for (const Group& group : groups_) {
      for (WarpMask m = group.warps; m != 0 && n < shared_; m &= m - 1, ++n) {
        shared_mask_ |= m & (~m + 1);
      }
      if (n >= shared_) break;
    }
  }

  bool drawn_;
  int shared_;                 // warps sharing the issue slots in turn
  WarpMask shared_mask_ = 0;   // those warps now
  int last_shared_ = -1;       // the shared warps' one issued last
  std::vector<Group> groups_;  // resident CTAs, first to issue first
  std::uint64_t priority_ = 0;
  std::uint64_t sequence_ = 0;
  WarpMask resident_ = 0;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_cta_rr_scheduler(const SmConfig& config) {
  return std::make_unique<CtaRoundRobinScheduler>(false, config.shared_warps);
}

std::unique_ptr<WarpScheduler> make_cta_rr_drawn_scheduler(const SmConfig& config) {
  return std::make_unique<CtaRoundRobinScheduler>(true, config.shared_warps);
}

}  // namespace warpsim::core
