// A die-to-die link (B200's NV-HBI between its two dies; MI300X's XCD-to-I/O-die fabric link):
// a point-to-point channel that joins a crossbar on one die to a crossbar on the other, in both
// directions, with a latency and a width.
//
// Wiring. Each of the two ends can be a server on its die's crossbar (requests for the other die
// arrive there; their responses leave there) and a requester on it (requests from the other die
// enter the crossbar there; their responses come back there). A request taken at end a is
// delivered into end b's crossbar, and its response, taken at end b, is delivered back to end a's
// crossbar; `restore_reply_to` gives the input index (MemRequest::reply_to) the response needs in
// end a's crossbar, which end b's crossbar overwrote.
//
// Timing, in cycles of the link's clock domain: a message visible at the link at cycle t that
// starts across then is visible at the other crossbar at t + latency_cycles. Each direction moves
// at most `bytes_per_cycle` (requests and responses together, 32-byte flits as on the crossbars:
// a header flit plus one per sector of data; rate_limiter.h), taking responses and requests in
// turn. Back-pressure: each direction holds at most latency × flits-per-cycle messages of each
// kind on the wire plus `queue_entries`; a full direction leaves messages in the crossbar's port
// (whose credits then stall the crossbar), and a message whose destination port is full waits at
// the link's far end. Requests and responses travel in separate queues, so responses always drain.
//
// Statistics per direction: messages, bytes, cycles with traffic waiting on the width.
//
// Left out: the link's physical layer (lanes, error retry, power states) and any routing beyond
// one hop.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "sim/engine/component.h"
#include "sim/engine/ring_buffer.h"
#include "sim/mem/mem_link.h"
#include "sim/mem/rate_limiter.h"

namespace warpsim::mem {

/// Latency and width of a die-to-die link (cycles and bytes of its clock domain).
struct DieLinkConfig {
  std::uint32_t latency_cycles = 1;    ///< one way, at least 1
  std::uint32_t bytes_per_cycle = 64;  ///< per direction; 0 = unlimited
  std::uint32_t queue_entries = 16;    ///< per direction and kind, beyond the wire's share
};

/// Traffic of one direction of the link.
struct DieLinkCounters {
  std::uint64_t requests = 0;        ///< requests carried
  std::uint64_t responses = 0;       ///< responses carried
  std::uint64_t bytes = 0;           ///< flits carried × 32
  std::uint64_t width_stalls = 0;    ///< cycles a message waited for the width
};

/// The link component.
class DieLink final : public engine::Component {
 public:
  /// Input index in end `end`'s crossbar that a response must go back to.
  using ReplyTo = std::function<std::uint16_t(const MemResponse& response)>;

  /// Throws warpsim::InputError naming `<name>.<field>` when the config is invalid.
  DieLink(std::string name, const engine::ClockDomain& domain, const DieLinkConfig& config);

  /// End `end` (0 or 1) serves its crossbar: the ends a crossbar's add_output returned, and how
  /// to find a response's input index in that crossbar.
  void set_server(int end, const MemLink& link, ReplyTo restore_reply_to);
  /// End `end` requests from its crossbar: the ends a crossbar's add_input returned.
  void set_client(int end, const MemLink& link);

  engine::Cycle tick(engine::Cycle now) override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

  /// Counters of the direction leaving end `from` (0 or 1).
  const DieLinkCounters& counters(int from) const { return dirs_[from].counters; }
  /// The configuration.
  const DieLinkConfig& config() const { return config_; }

 private:
  template <class Msg>
  struct Flight {
    engine::Cycle ready = 0;
    Msg message{};
  };
  struct Direction {
    engine::RingBuffer<Flight<MemRequest>> requests;
    engine::RingBuffer<Flight<MemResponse>> responses;
    RateLimiter rate{0};
    bool responses_first = true;
    DieLinkCounters counters;
  };

  engine::Cycle step(int from, engine::Cycle now);
  void deliver(int from, engine::Cycle now);

  DieLinkConfig config_;
  std::size_t capacity_ = 0;  // messages per direction and kind
  std::array<MemLink, 2> server_{};
  std::array<MemLink, 2> client_{};
  std::array<ReplyTo, 2> reply_to_{};
  std::array<Direction, 2> dirs_;
};

}  // namespace warpsim::mem
