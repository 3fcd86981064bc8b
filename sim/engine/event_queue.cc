#include "sim/engine/event_queue.h"

namespace warpsim::engine {

void EventQueue::resize(std::size_t n) {
  heap_.clear();
  heap_.reserve(n);
  pos_.assign(n, kAbsent);
}

ComponentId EventQueue::pop() {
  const ComponentId id = heap_.front().id;
  pos_[id] = kAbsent;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) {
    place(0, last);
    sift_down(0);
  }
  return id;
}

void EventQueue::set(ComponentId id, Time time) {
  const Entry e{time, id};
  if (pos_[id] == kAbsent) {
    heap_.push_back(e);
    pos_[id] = static_cast<std::uint32_t>(heap_.size() - 1);
    sift_up(heap_.size() - 1);
    return;
  }
  const std::size_t i = pos_[id];
  const Time old = heap_[i].time;
  heap_[i].time = time;
  if (time < old) {
    sift_up(i);
  } else if (time > old) {
    sift_down(i);
  }
}

void EventQueue::remove(ComponentId id) {
  if (pos_[id] == kAbsent) return;
  const std::size_t i = pos_[id];
  pos_[id] = kAbsent;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (i == heap_.size()) return;
  place(i, last);
  sift_up(i);
  sift_down(pos_[last.id]);
}

void EventQueue::sift_up(std::size_t i) {
  const Entry e = heap_[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!before(e, heap_[parent])) break;
    place(i, heap_[parent]);
    i = parent;
  }
  place(i, e);
}

void EventQueue::sift_down(std::size_t i) {
  const Entry e = heap_[i];
  const std::size_t n = heap_.size();
  while (true) {
    std::size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
    if (!before(heap_[child], e)) break;
    place(i, heap_[child]);
    i = child;
  }
  place(i, e);
}

}  // namespace warpsim::engine
