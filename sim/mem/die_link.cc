#include "sim/mem/die_link.h"

#include <algorithm>
#include <ostream>
#include <utility>

#include "arch/error.h"
#include "sim/mem/interconnect.h"

namespace warpsim::mem {

using engine::Cycle;
using engine::kSleep;

DieLink::DieLink(std::string name, const engine::ClockDomain& domain, const DieLinkConfig& config)
    : Component(std::move(name), domain), config_(config) {
  if (config.latency_cycles == 0) {
    throw InputError(this->name() + ".latency_cycles: expected at least 1 cycle, got 0");
  }
  if (config.queue_entries == 0) {
    throw InputError(this->name() + ".queue_entries: expected at least 1 entry, got 0");
  }
  const std::size_t per_cycle = std::max<std::size_t>(1, config.bytes_per_cycle / kSectorBytes);
  capacity_ = config.queue_entries + std::size_t{config.latency_cycles} * per_cycle;
  for (Direction& d : dirs_) {
    d.rate = RateLimiter(config.bytes_per_cycle);
    d.requests.reserve(capacity_);
    d.responses.reserve(capacity_);
  }
}

void DieLink::set_server(int end, const MemLink& link, ReplyTo restore_reply_to) {
  server_.at(static_cast<std::size_t>(end)) = link;
  reply_to_.at(static_cast<std::size_t>(end)) = std::move(restore_reply_to);
}

void DieLink::set_client(int end, const MemLink& link) {
  client_.at(static_cast<std::size_t>(end)) = link;
}

Cycle DieLink::step(int from, Cycle now) {
  const int to = 1 - from;
  Direction& d = dirs_[from];
  Cycle next = kSleep;
  deliver(from, now);
  // Take messages onto the wire: responses and requests in turn while the width allows.
  engine::Port<MemRequest>* req_in = server_[from].request;
  engine::Port<MemResponse>* resp_in = client_[from].response;
  d.rate.refill(now);
  while (true) {
    const bool req_ready = req_in != nullptr && req_in->has_message() && d.requests.size() < capacity_;
    const bool resp_ready =
        resp_in != nullptr && resp_in->has_message() && d.responses.size() < capacity_;
    if (!req_ready && !resp_ready) break;
    if (!d.rate.available()) {
      ++d.counters.width_stalls;
      next = std::min(next, std::max(now + 1, d.rate.next_available(now)));
      break;
    }
    const Cycle ready = now + config_.latency_cycles - 1;
    if (resp_ready && (d.responses_first || !req_ready)) {
      MemResponse r = resp_in->pop();
      r.reply_to = reply_to_[to](r);
      const std::uint32_t bytes = response_flits(r) * kSectorBytes;
      d.rate.consume(bytes);
      d.counters.bytes += bytes;
      ++d.counters.responses;
      d.responses.push_back({ready, r});
    } else {
      const MemRequest r = req_in->pop();
      const std::uint32_t bytes = request_flits(r) * kSectorBytes;
      d.rate.consume(bytes);
      d.counters.bytes += bytes;
      ++d.counters.requests;
      d.requests.push_back({ready, r});
    }
    d.responses_first = !d.responses_first;
    note_progress();
  }
  deliver(from, now);
  // Messages left behind by a full wire retry next cycle (a delivery above made room).
  const bool waiting =
      (req_in != nullptr && req_in->has_message() && d.requests.size() < capacity_) ||
      (resp_in != nullptr && resp_in->has_message() && d.responses.size() < capacity_);
  if (waiting && d.rate.available()) next = std::min(next, now + 1);
  if (!d.requests.empty() && d.requests.front().ready > now) {
    next = std::min(next, d.requests.front().ready);
  }
  if (!d.responses.empty() && d.responses.front().ready > now) {
    next = std::min(next, d.responses.front().ready);
  }
  return next;
}

void DieLink::deliver(int from, Cycle now) {
  // A message whose destination port is full waits; that port's credit wakes the link.
  const int to = 1 - from;
  Direction& d = dirs_[from];
  while (!d.requests.empty() && d.requests.front().ready <= now &&
         client_[to].request->can_send()) {
    client_[to].request->send(d.requests.front().message);
    d.requests.pop_front();
    note_progress();
  }
  while (!d.responses.empty() && d.responses.front().ready <= now &&
         server_[to].response->can_send()) {
    server_[to].response->send(d.responses.front().message);
    d.responses.pop_front();
    note_progress();
  }
}

Cycle DieLink::tick(Cycle now) { return std::min(step(0, now), step(1, now)); }

bool DieLink::busy() const {
  for (const Direction& d : dirs_) {
    if (!d.requests.empty() || !d.responses.empty()) return true;
  }
  for (int e = 0; e < 2; ++e) {
    if (server_[e].request != nullptr && server_[e].request->next_arrival() != engine::kNever) {
      return true;
    }
    if (client_[e].response != nullptr && client_[e].response->next_arrival() != engine::kNever) {
      return true;
    }
  }
  return false;
}

void DieLink::dump_state(std::ostream& out) const {
  for (int e = 0; e < 2; ++e) {
    const Direction& d = dirs_[e];
    out << "from " << e << ": requests=" << d.requests.size() << " responses=" << d.responses.size()
        << " carried=" << d.counters.requests << "/" << d.counters.responses << " ";
  }
}

}  // namespace warpsim::mem
