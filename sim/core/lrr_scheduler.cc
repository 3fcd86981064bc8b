// Loose round robin: the first eligible warp after the one issued last, in slot order, wrapping.
#include "sim/core/warp_scheduler.h"

namespace warpsim::core {
namespace {

class LrrScheduler final : public WarpScheduler {
 public:
  void add_warp(int slot) override { resident_ |= WarpMask{1} << slot; }
  void remove_warp(int slot) override { resident_ &= ~(WarpMask{1} << slot); }
  int pick(WarpMask eligible) override {
    if (eligible == 0) return -1;
    return next_in_turn(eligible, last_);
  }
  void issued(int slot) override { last_ = slot; }
  WarpMask issuable() const override { return resident_; }

 private:
  WarpMask resident_ = 0;
  int last_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_lrr_scheduler(const SmConfig&) {
  return std::make_unique<LrrScheduler>();
}

}  // namespace warpsim::core
