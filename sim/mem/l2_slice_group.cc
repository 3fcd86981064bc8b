#include "sim/mem/l2_slice_group.h"

#include <algorithm>
#include <ostream>
#include <utility>

namespace warpsim::mem {

L2SliceGroup::L2SliceGroup(std::string name, const engine::ClockDomain& domain,
                           std::vector<L2Slice*> column)
    : Component(std::move(name), domain), column_(std::move(column)) {
  for (L2Slice* slice : column_) slice->set_column(column_);
}

engine::Cycle L2SliceGroup::tick(engine::Cycle now) {
  engine::Cycle next = engine::kSleep;
  for (L2Slice* slice : column_) {
    next = std::min(next, slice->tick(now));
    if (slice->take_progress()) note_progress();
  }
  // A slice stalled on its neighbour's full write-back queue retries next cycle.
  return next;
}

bool L2SliceGroup::busy() const {
  return std::any_of(column_.begin(), column_.end(), [](const L2Slice* s) { return s->busy(); });
}

void L2SliceGroup::dump_state(std::ostream& out) const {
  for (const L2Slice* slice : column_) {
    out << "[" << slice->name() << ": ";
    slice->dump_state(out);
    out << "] ";
  }
}

}  // namespace warpsim::mem
