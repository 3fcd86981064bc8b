// Point-to-point message channels between two components.
//
// A port has one sender and one receiver, a fixed latency in picoseconds (at least 1, so a message
// always arrives strictly after the instant it was sent) and an optional capacity. Messages travel
// in FIFO order. A send made during an instant is staged on the sender's side and published by the
// engine in the commit phase, which also wakes the receiver at its first cycle edge at or after the
// arrival time. The receiver sees only messages whose arrival time is at or before the current
// time.
//
// With a capacity, `can_send()` is false while in-flight plus unconsumed messages reach it. A pop
// returns a credit, which the sender sees from the next instant on; a sender that found the port
// full is woken at its first cycle edge after the credit returns.
//
// The commit of a port has two halves that touch disjoint fields, so that the engine may run them
// on different threads: the sender's (staged messages, `sent_`, `max_occupancy_`) and the
// receiver's (`popped_`, the stalled sender's wake-up). Pops are counted as they happen in
// `pops_total_`, which neither half writes.
//
// Left out: bandwidth (bytes per cycle) and message sizes, which the models on either side
// express by how many messages they send or pop per cycle; broadcast; variable latency.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/engine/clock_domain.h"
#include "sim/engine/component.h"
#include "sim/engine/ring_buffer.h"

namespace warpsim::engine {

/// Latency and capacity of a port.
struct PortConfig {
  /// Picoseconds from send to arrival, at least 1. For a latency in cycles of the sender's
  /// domain use `sender.domain().duration(cycles)`.
  Time latency_ps = 1;
  /// Most messages in flight plus unconsumed; 0 means unbounded.
  std::size_t capacity = 0;
  /// Name for reports; empty gives "<sender>-><receiver>".
  std::string name{};
};

/// The type-independent part of a port: endpoints, credits, statistics and commit bookkeeping.
class PortBase {
 public:
  virtual ~PortBase();
  PortBase(const PortBase&) = delete;
  PortBase& operator=(const PortBase&) = delete;

  /// The port's name.
  const std::string& name() const { return name_; }
  /// The sending component.
  Component& sender() const { return *sender_; }
  /// The receiving component.
  Component& receiver() const { return *receiver_; }
  /// Latency in picoseconds.
  Time latency() const { return latency_; }
  /// Capacity, 0 when unbounded.
  std::size_t capacity() const { return capacity_; }
  /// Messages in flight or unconsumed, as of the latest commit.
  std::size_t occupancy() const { return static_cast<std::size_t>(sent_ - popped_); }
  /// Highest occupancy seen at any commit.
  std::size_t max_occupancy() const { return max_occupancy_; }
  /// Messages published so far.
  std::uint64_t sent_count() const { return sent_; }
  /// Messages popped so far.
  std::uint64_t popped_count() const { return popped_; }

 protected:
  PortBase(Component& sender, Component& receiver, const PortConfig& config, const Time* now);

  void note_send() {
    if (!send_dirty_) {
      send_dirty_ = true;
      sender_->dirty_ports_.push_back(this);
    }
  }
  void note_pop() {
    ++pops_total_;
    if (!pop_dirty_) {
      pop_dirty_ = true;
      receiver_->dirty_ports_.push_back(this);
    }
  }
  [[noreturn]] void fail(const char* what) const;

  // Engine time, read by both sides to stamp and filter messages.
  const Time* now_;
  std::size_t capacity_;
  // Set by the sender when it found the port full; cleared when a credit returns.
  mutable bool sender_stalled_ = false;

 private:
  friend class Engine;
  // Moves the staged messages into the queue with the given arrival time; returns their number.
  virtual std::size_t publish_staged(Time arrival) = 0;

  std::string name_;
  Component* sender_;
  Component* receiver_;
  // The endpoints' domains and ids (refreshed when the engine renumbers its components), so that
  // publishing a port owes wake-ups without loading either component.
  const ClockDomain* sender_domain_;
  const ClockDomain* receiver_domain_;
  ComponentId sender_id_ = 0;
  ComponentId receiver_id_ = 0;
  Time latency_;
  std::size_t max_occupancy_ = 0;
  std::uint64_t sent_ = 0;        // published messages (sender's half of the commit)
  std::uint64_t popped_ = 0;      // returned credits (receiver's half of the commit)
  std::uint64_t pops_total_ = 0;  // pops so far, this instant's included (receiver, in ticks)
  bool send_dirty_ = false;       // sender side
  bool pop_dirty_ = false;        // receiver side
};

/// A typed port carrying messages of type T (default-constructible and move-assignable).
template <class T>
class Port final : public PortBase {
  static_assert(std::is_default_constructible_v<T> && std::is_move_assignable_v<T>,
                "port messages must be default-constructible and move-assignable");

 public:
  /// Created by Engine::connect.
  Port(Component& sender, Component& receiver, const PortConfig& config, const Time* now)
      : PortBase(sender, receiver, config, now) {
    if (capacity_ != 0) {
      queue_.reserve(capacity_);
      staged_.reserve(capacity_);
    }
  }

  /// Sender side: true when a message may be sent now.
  bool can_send() const {
    if (capacity_ == 0 || occupancy() + staged_.size() < capacity_) return true;
    sender_stalled_ = true;
    return false;
  }

  /// Sender side: sends `message`, arriving `latency()` ps from now. Throws warpsim::InternalError
  /// when the port is full.
  void send(T message) {
    if (!can_send()) fail("send on a full port");
    note_send();
    staged_.push_back(std::move(message));
  }

  /// Receiver side: true when a message has arrived and not been popped.
  bool has_message() const { return !queue_.empty() && queue_.front().arrival <= *now_; }

  /// Receiver side: the oldest arrived message. Throws warpsim::InternalError when none arrived.
  const T& front() const {
    if (!has_message()) fail("front() with no arrived message");
    return queue_.front().message;
  }

  /// Receiver side: removes and returns the oldest arrived message, returning a credit. Throws
  /// warpsim::InternalError when none arrived.
  T pop() {
    if (!has_message()) fail("pop() with no arrived message");
    T message = std::move(queue_.front().message);
    queue_.pop_front();
    note_pop();
    return message;
  }

  /// Receiver side: starts loading the oldest message (a hint; no effect on results).
  void prefetch_front() const {
    if (!queue_.empty()) __builtin_prefetch(&queue_.front());
  }

  /// Arrival time of the oldest published message not yet popped (arrived or not), kNever if none.
  Time next_arrival() const { return queue_.empty() ? kNever : queue_.front().arrival; }

 private:
  struct Entry {
    Time arrival = 0;
    T message{};
  };

  std::size_t publish_staged(Time arrival) override {
    const std::size_t n = staged_.size();
    for (T& m : staged_) queue_.push_back(Entry{arrival, std::move(m)});
    staged_.clear();
    return n;
  }

  RingBuffer<Entry> queue_;  // published messages, receiver side
  std::vector<T> staged_;    // sent this instant, sender side
};

}  // namespace warpsim::engine
