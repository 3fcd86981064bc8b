// A crossbar between N requesters (SMs, or L2 slices) and M servers (L2 slices, or DRAM channels),
// in both directions: requests from inputs to outputs chosen by a route function of the line
// address, responses back to the input each request came from (MemRequest::reply_to).
//
// Flit model: a flit is one 32-byte sector. A message costs one header flit plus one flit per
// sector of data it carries: a read request 1 flit, a write / atomic / reduction request
// 1 + sectors, a read or atomic response 1 + sectors, a write or reduction acknowledgement 1.
// Every input and every output of each direction moves at most `port_bytes_per_cycle`, and all
// outputs of one direction together at most `total_bytes_per_cycle` (rate_limiter.h: a message
// may start while the budget is positive and borrows the rest from the following cycles).
//
// Timing: a message visible at the crossbar at cycle t that wins arbitration leaves at t and is
// visible at its destination at t + latency_cycles (the output ports carry the latency; the ports
// into the crossbar carry one cycle of the sender's domain). Arbitration is round robin over the
// inputs: each cycle the inputs are visited from a pointer (starting at 0) that moves past the
// last input served, and each forwards its queue head while its input budget, the output's budget
// and credits, and the total budget allow. Queues are FIFO, so a blocked head blocks its input.
// Back-pressure: every port has a capacity (credits); a full output stalls the inputs whose head
// wants it, a full input port makes the sender's can_send() false. An output's credits cover the
// messages on the wire (latency_cycles × port flits per cycle, one-flit messages) plus
// output_queue_entries waiting at the destination, so latency alone never throttles a port.
//
// Left out: topology (a crossbar is one hop), virtual channels, and contention inside the fabric
// beyond the per-port and total limits.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/engine/component.h"
#include "sim/engine/engine.h"
#include "sim/mem/mem_link.h"
#include "sim/mem/rate_limiter.h"

namespace warpsim::mem {

/// Latency, widths and queue depths of a crossbar (cycles and bytes of its clock domain).
struct InterconnectConfig {
  std::uint32_t latency_cycles = 1;         ///< crossbar input to destination, at least 1
  std::uint32_t port_bytes_per_cycle = 64;  ///< per input and per output; 0 = unlimited
  std::uint32_t total_bytes_per_cycle = 0;  ///< per direction, all outputs; 0 = unlimited
  std::uint32_t input_queue_entries = 16;   ///< capacity of each port into the crossbar
  std::uint32_t output_queue_entries = 16;  ///< capacity of each port out of the crossbar
};

/// Traffic counters of one direction.
struct CrossbarCounters {
  std::uint64_t messages = 0;       ///< messages forwarded
  std::uint64_t bytes = 0;          ///< flits forwarded × 32
  std::uint64_t credit_stalls = 0;  ///< (input, cycle) pairs whose head found its output full
};

/// Flits (32 bytes each) a request costs on the crossbar.
std::uint32_t request_flits(const MemRequest& request);
/// Flits a response costs on the crossbar.
std::uint32_t response_flits(const MemResponse& response);

/// The crossbar component.
class Interconnect final : public engine::Component {
 public:
  /// Output index (0 .. outputs-1) of a request's line address.
  using Route = std::function<std::uint32_t(std::uint64_t line_address)>;

  /// Throws warpsim::InputError naming `<name>.<field>` when the config is invalid.
  Interconnect(std::string name, const engine::ClockDomain& domain,
               const InterconnectConfig& config, Route route);

  /// Adds the next input for `requester` (registered in `engine`, as is the crossbar) and
  /// returns the requester's ends: it sends on `request` and pops `response`.
  /// `port_bytes_per_cycle` overrides the config's rate for this port (kConfigRate: keep it;
  /// 0: unlimited), e.g. for a die-to-die link that is wider than an SM's port.
  MemLink add_input(engine::Engine& engine, engine::Component& requester,
                    std::uint32_t port_bytes_per_cycle = kConfigRate);
  /// Adds the next output for `server`; returns the server's ends: it pops `request` and sends
  /// on `response`. `port_bytes_per_cycle` as for add_input.
  MemLink add_output(engine::Engine& engine, engine::Component& server,
                     std::uint32_t port_bytes_per_cycle = kConfigRate);
  /// add_input / add_output: use the config's port rate.
  static constexpr std::uint32_t kConfigRate = ~std::uint32_t{0};

  engine::Cycle tick(engine::Cycle now) override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

  /// Request-direction counters.
  const CrossbarCounters& request_counters() const { return requests_.counters; }
  /// Response-direction counters.
  const CrossbarCounters& response_counters() const { return responses_.counters; }
  /// The configuration.
  const InterconnectConfig& config() const { return config_; }

 private:
  /// Credits of a port out of the crossbar: messages on the wire plus the destination queue.
  std::size_t output_capacity(std::uint32_t port_bytes_per_cycle) const;
  template <class Msg>
  struct Plane {
    std::vector<engine::Port<Msg>*> in;
    std::vector<engine::Port<Msg>*> out;
    std::vector<RateLimiter> in_rate;
    std::vector<RateLimiter> out_rate;
    RateLimiter total;
    std::uint32_t next_input = 0;
    CrossbarCounters counters;
  };

  template <class Msg, class RouteOf, class Cost>
  engine::Cycle step(Plane<Msg>& plane, engine::Cycle now, RouteOf route_of, Cost cost,
                     bool set_reply_to);

  InterconnectConfig config_;
  Route route_;
  Plane<MemRequest> requests_;
  Plane<MemResponse> responses_;
};

}  // namespace warpsim::mem
