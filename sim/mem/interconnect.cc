#include "sim/mem/interconnect.h"

#include <algorithm>
#include <limits>
#include <ostream>
#include <utility>

#include "arch/error.h"

namespace warpsim::mem {

using engine::Cycle;
using engine::kSleep;

std::uint32_t request_flits(const MemRequest& request) {
  return 1 + (carries_data(request.op) ? sector_count(request.sector_mask) : 0);
}

std::uint32_t response_flits(const MemResponse& response) {
  return 1 + (returns_data(response.op) ? sector_count(response.sector_mask) : 0);
}

Interconnect::Interconnect(std::string name, const engine::ClockDomain& domain,
                           const InterconnectConfig& config, Route route)
    : Component(std::move(name), domain), config_(config), route_(std::move(route)) {
  const std::string& n = this->name();
  if (config.latency_cycles == 0) {
    throw InputError(n + ".latency_cycles: expected at least 1 cycle, got 0");
  }
  if (config.input_queue_entries == 0) {
    throw InputError(n + ".input_queue_entries: expected at least 1 entry, got 0");
  }
  if (config.output_queue_entries == 0) {
    throw InputError(n + ".output_queue_entries: expected at least 1 entry, got 0");
  }
  if (!route_) throw InternalError(n + ": no route function");
  requests_.total = RateLimiter(config.total_bytes_per_cycle);
  responses_.total = RateLimiter(config.total_bytes_per_cycle);
}

std::size_t Interconnect::output_capacity(std::uint32_t port_bytes_per_cycle) const {
  // The wire holds up to latency × (messages per cycle) messages; credits cover them and the
  // queue at the destination, so a port streams at its full rate whatever its latency.
  const std::size_t per_cycle = std::max<std::size_t>(1, port_bytes_per_cycle / 32);
  return config_.output_queue_entries + std::size_t{config_.latency_cycles} * per_cycle;
}

MemLink Interconnect::add_input(engine::Engine& engine, engine::Component& requester,
                                std::uint32_t port_bytes_per_cycle) {
  const std::uint32_t rate =
      port_bytes_per_cycle == kConfigRate ? config_.port_bytes_per_cycle : port_bytes_per_cycle;
  if (requests_.in.size() > std::numeric_limits<std::uint16_t>::max()) {
    throw InputError(name() + ": more than 65536 inputs");
  }
  auto& request = engine.connect<MemRequest>(
      requester, *this,
      {.latency_ps = requester.domain().duration(1), .capacity = config_.input_queue_entries});
  auto& response =
      engine.connect<MemResponse>(*this, requester,
                                  {.latency_ps = domain().duration(config_.latency_cycles),
                                   .capacity = output_capacity(rate)});
  requests_.in.push_back(&request);
  requests_.in_rate.emplace_back(rate);
  responses_.out.push_back(&response);
  responses_.out_rate.emplace_back(rate);
  return {&request, &response};
}

MemLink Interconnect::add_output(engine::Engine& engine, engine::Component& server,
                                 std::uint32_t port_bytes_per_cycle) {
  const std::uint32_t rate =
      port_bytes_per_cycle == kConfigRate ? config_.port_bytes_per_cycle : port_bytes_per_cycle;
  auto& request =
      engine.connect<MemRequest>(*this, server,
                                 {.latency_ps = domain().duration(config_.latency_cycles),
                                  .capacity = output_capacity(rate)});
  auto& response = engine.connect<MemResponse>(
      server, *this,
      {.latency_ps = server.domain().duration(1), .capacity = config_.input_queue_entries});
  requests_.out.push_back(&request);
  requests_.out_rate.emplace_back(rate);
  responses_.in.push_back(&response);
  responses_.in_rate.emplace_back(rate);
  return {&request, &response};
}

template <class Msg, class RouteOf, class Cost>
Cycle Interconnect::step(Plane<Msg>& plane, Cycle now, RouteOf route_of, Cost cost,
                         bool set_reply_to) {
  const std::size_t inputs = plane.in.size();
  Cycle next = kSleep;
  std::size_t last_served = inputs;
  plane.total.refill(now);
  for (std::size_t k = 0; k < inputs; ++k) {
    const std::size_t i = (plane.next_input + k) % inputs;
    engine::Port<Msg>& in = *plane.in[i];
    if (!in.has_message()) continue;
    RateLimiter& in_rate = plane.in_rate[i];
    in_rate.refill(now);
    while (in.has_message()) {
      const std::uint32_t o = route_of(in.front());
      if (o >= plane.out.size()) {
        throw InternalError(name() + ": route gave output " + std::to_string(o) + " of " +
                            std::to_string(plane.out.size()));
      }
      RateLimiter& out_rate = plane.out_rate[o];
      out_rate.refill(now);
      RateLimiter* limiting = !in_rate.available()       ? &in_rate
                              : !out_rate.available()    ? &out_rate
                              : !plane.total.available() ? &plane.total
                                                         : nullptr;
      if (limiting != nullptr) {
        next = std::min(next, std::max(now + 1, limiting->next_available(now)));
        break;
      }
      if (!plane.out[o]->can_send()) {  // the credit's return wakes this component
        ++plane.counters.credit_stalls;
        break;
      }
      Msg message = in.pop();
      if (set_reply_to) message.reply_to = static_cast<std::uint16_t>(i);
      const std::int64_t bytes = std::int64_t{cost(message)} * kSectorBytes;
      in_rate.consume(bytes);
      out_rate.consume(bytes);
      plane.total.consume(bytes);
      plane.out[o]->send(message);
      ++plane.counters.messages;
      plane.counters.bytes += static_cast<std::uint64_t>(bytes);
      last_served = i;
      note_progress();
    }
  }
  if (last_served != inputs)
    plane.next_input = static_cast<std::uint32_t>((last_served + 1) % inputs);
  return next;
}

Cycle Interconnect::tick(Cycle now) {
  const Cycle a = step(
      requests_, now, [this](const MemRequest& r) { return route_(r.line_address); }, request_flits,
      true);
  const Cycle b = step(
      responses_, now, [](const MemResponse& r) { return std::uint32_t{r.reply_to}; },
      response_flits, false);
  return std::min(a, b);
}

bool Interconnect::busy() const {
  for (const auto* port : requests_.in) {
    if (port->next_arrival() != engine::kNever) return true;
  }
  for (const auto* port : responses_.in) {
    if (port->next_arrival() != engine::kNever) return true;
  }
  return false;
}

void Interconnect::dump_state(std::ostream& out) const {
  out << "requests forwarded=" << requests_.counters.messages
      << " responses forwarded=" << responses_.counters.messages << " queued inputs:";
  for (std::size_t i = 0; i < requests_.in.size(); ++i) {
    if (requests_.in[i]->occupancy() != 0)
      out << " req[" << i << "]=" << requests_.in[i]->occupancy();
  }
  for (std::size_t i = 0; i < responses_.in.size(); ++i) {
    if (responses_.in[i]->occupancy() != 0)
      out << " resp[" << i << "]=" << responses_.in[i]->occupancy();
  }
}

}  // namespace warpsim::mem
