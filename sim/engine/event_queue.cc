#include "sim/engine/event_queue.h"

#include <bit>
#include <utility>

namespace warpsim::engine {

void EventQueue::resize(std::size_t n) {
  buckets_.clear();
  spare_.clear();
  words_ = (n + 63) / 64;
  time_.assign(n, kNever);
  size_ = 0;
}

std::size_t EventQueue::find(Time time) const {
  // buckets_ is sorted by decreasing time: the first index whose time is <= `time`. Most times
  // asked for lie among the earliest few buckets (the back): look there first.
  std::size_t hi = buckets_.size();
  for (int step = 0; step < 4 && hi > 0; ++step) {
    if (buckets_[hi - 1].time > time) return hi;
    --hi;
  }
  std::size_t lo = 0;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (buckets_[mid].time > time) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

ComponentId EventQueue::top_id() const {
  const Bucket& b = buckets_.back();
  std::size_t w = b.first_word;
  while (b.bits[w] == 0) ++w;
  return static_cast<ComponentId>(w * 64 + static_cast<std::size_t>(std::countr_zero(b.bits[w])));
}

ComponentId EventQueue::pop() {
  Bucket& b = buckets_.back();
  std::size_t w = b.first_word;
  while (b.bits[w] == 0) ++w;
  b.first_word = static_cast<std::uint32_t>(w);
  const int bit = std::countr_zero(b.bits[w]);
  b.bits[w] &= b.bits[w] - 1;
  const auto id = static_cast<ComponentId>(w * 64 + static_cast<std::size_t>(bit));
  time_[id] = kNever;
  --size_;
  if (--b.count == 0) erase_bucket(buckets_.size() - 1);
  return id;
}

void EventQueue::erase_bucket(std::size_t index) {
  Bucket& b = buckets_[index];
  for (std::size_t w = 0; w < words_; ++w) b.bits[w] = 0;
  spare_.push_back(std::move(b.bits));
  buckets_.erase(buckets_.begin() + static_cast<std::ptrdiff_t>(index));
}

void EventQueue::set(ComponentId id, Time time) {
  if (time_[id] == time) return;
  remove(id);
  std::size_t i = find(time);
  if (i == buckets_.size() || buckets_[i].time != time) {
    Bucket b;
    b.time = time;
    if (spare_.empty()) {
      b.bits.assign(words_, 0);
    } else {
      b.bits = std::move(spare_.back());
      spare_.pop_back();
    }
    b.first_word = static_cast<std::uint32_t>(words_);
    buckets_.insert(buckets_.begin() + static_cast<std::ptrdiff_t>(i), std::move(b));
  }
  Bucket& b = buckets_[i];
  const std::size_t w = id / 64;
  b.bits[w] |= std::uint64_t{1} << (id % 64);
  if (w < b.first_word) b.first_word = static_cast<std::uint32_t>(w);
  ++b.count;
  time_[id] = time;
  ++size_;
}

void EventQueue::remove(ComponentId id) {
  const Time time = time_[id];
  if (time == kNever) return;
  const std::size_t i = find(time);
  Bucket& b = buckets_[i];
  b.bits[id / 64] &= ~(std::uint64_t{1} << (id % 64));
  time_[id] = kNever;
  --size_;
  if (--b.count == 0) erase_bucket(i);
}

}  // namespace warpsim::engine
