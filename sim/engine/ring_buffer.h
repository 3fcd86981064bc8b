// A growable FIFO ring buffer for port message queues.
//
// Unlike std::deque it keeps its storage once grown, so a queue in steady state never allocates.
// Capacity is a power of two; growth doubles it and moves the elements in order. Elements must be
// default-constructible and move-assignable (slots are reused, not destroyed, on pop).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace warpsim::engine {

/// FIFO of T in a power-of-two ring that grows on demand and never shrinks.
template <class T>
class RingBuffer {
 public:
  /// Ensures room for `n` elements without further allocation.
  void reserve(std::size_t n) {
    if (n > slots_.size()) grow(n);
  }
  /// Number of elements held.
  std::size_t size() const { return size_; }
  /// True when no element is held.
  bool empty() const { return size_ == 0; }
  /// The oldest element; requires !empty().
  T& front() { return slots_[head_]; }
  /// The oldest element; requires !empty().
  const T& front() const { return slots_[head_]; }
  /// Appends `value` at the back, growing the storage when full.
  void push_back(T value) {
    if (size_ == slots_.size()) grow(size_ + 1);
    slots_[(head_ + size_) & (slots_.size() - 1)] = std::move(value);
    ++size_;
  }
  /// Drops the oldest element; requires !empty().
  void pop_front() {
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }

 private:
  void grow(std::size_t at_least) {
    std::size_t cap = slots_.empty() ? 4 : slots_.size();
    while (cap < at_least) cap *= 2;
    std::vector<T> next(cap);
    for (std::size_t i = 0; i < size_; ++i) {
      next[i] = std::move(slots_[(head_ + i) & (slots_.size() - 1)]);
    }
    slots_ = std::move(next);
    head_ = 0;
  }

  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace warpsim::engine
