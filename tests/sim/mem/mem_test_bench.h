// Mock neighbours for memory-system tests: an SM that replays a request stream and records when
// each response arrives, and a next-level memory that answers reads after a fixed latency.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/component.h"
#include "sim/mem/mem_link.h"

namespace warpsim::mem::testing {

using engine::Cycle;
using engine::kSleep;

/// Sends each request at (or, when the port is full, after) its cycle; records sends and
/// responses by request id.
class MockSm final : public engine::Component {
 public:
  MockSm(std::string name, const engine::ClockDomain& domain)
      : Component(std::move(name), domain) {}

  void set_link(const MemLink& link) { link_ = link; }
  /// Queues `request` for cycle `at` (cycles must not decrease).
  void push(Cycle at, const MemRequest& request) { items_.push_back({at, request}); }

  Cycle tick(Cycle now) override {
    while (link_.response->has_message()) {
      const MemResponse r = link_.response->pop();
      if (received_at.contains(r.id)) ++duplicates;
      received_at[r.id] = now;
      responses.push_back(r);
      note_progress();
    }
    while (!items_.empty() && items_.front().first <= now) {
      if (!link_.request->can_send()) return kSleep;  // woken by the credit
      MemRequest r = items_.front().second;
      r.issue_time_ps = domain().time_of(now);
      link_.request->send(r);
      sent_at[r.id] = now;
      items_.pop_front();
      note_progress();
    }
    return items_.empty() ? kSleep : items_.front().first;
  }
  bool busy() const override {
    return !items_.empty() || (expect_responses && received_at.size() < sent_at.size());
  }
  void dump_state(std::ostream& out) const override {
    out << "queued=" << items_.size() << " sent=" << sent_at.size()
        << " received=" << received_at.size();
  }

  /// Cycles from send to response of request `id`.
  Cycle latency(std::uint64_t id) const { return received_at.at(id) - sent_at.at(id); }
  /// Requests not yet sent.
  std::size_t queued() const { return items_.size(); }

  std::map<std::uint64_t, Cycle> sent_at;
  std::map<std::uint64_t, Cycle> received_at;
  std::vector<MemResponse> responses;
  int duplicates = 0;
  /// When false, unanswered requests do not count as unfinished work (for one-way tests).
  bool expect_responses = true;

 private:
  MemLink link_{};
  std::deque<std::pair<Cycle, MemRequest>> items_;
};

/// A next level that answers every read `latency` cycles after it becomes visible (the response
/// port's own latency included) and records every request.
class MockMemory final : public engine::Component {
 public:
  MockMemory(std::string name, const engine::ClockDomain& domain, Cycle latency)
      : Component(std::move(name), domain), latency_(latency) {}

  void set_link(const MemLink& link) { link_ = link; }

  Cycle tick(Cycle now) override {
    while (link_.request->has_message()) {
      const MemRequest r = link_.request->pop();
      requests.push_back({now, r});
      if (r.op == MemOp::kRead) pending_.push_back({now + latency_ - 1, r});
      note_progress();
    }
    while (!pending_.empty() && pending_.front().first <= now && link_.response->can_send()) {
      link_.response->send(response_to(pending_.front().second));
      pending_.pop_front();
    }
    if (pending_.empty()) return kSleep;
    return std::max(now + 1, pending_.front().first);
  }
  bool busy() const override { return !pending_.empty(); }

  std::vector<std::pair<Cycle, MemRequest>> requests;

 private:
  Cycle latency_;
  MemLink link_{};
  std::deque<std::pair<Cycle, MemRequest>> pending_;
};

}  // namespace warpsim::mem::testing
