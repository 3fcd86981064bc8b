// A randomised network of components in three clock domains exchanging messages over ports with
// random latencies and capacities: its event log must not depend on thread count or on the order
// in which components and ports were registered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "sim/engine/engine.h"

namespace warpsim::engine {
namespace {

struct Msg {
  std::uint64_t value = 0;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t name_seed(const std::string& name) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return h;
}

class Node : public Component {
 public:
  Node(std::string name, const ClockDomain& d, int budget)
      : Component(std::move(name), d), rng_(name_seed(this->name())), budget_(budget) {}

  Cycle tick(Cycle now) override {
    for (Port<Msg>* in : inputs) {
      while (in->has_message()) {
        hash_ = mix(hash_ ^ in->pop().value ^ now);
        note_progress();
      }
    }
    log.push_back(hash_ ^ (now << 1));
    if (budget_ == 0) return kSleep;
    Port<Msg>* out = outputs[next() % outputs.size()];
    if (out->can_send()) {
      out->send({next() ^ hash_});
      --budget_;
    }
    const std::uint64_t r = next() % 8;
    return r == 0 ? kSleep : now + r * r;
  }

  std::vector<Port<Msg>*> inputs;
  std::vector<Port<Msg>*> outputs;
  std::vector<std::uint64_t> log;

 private:
  std::uint64_t next() { return rng_ = mix(rng_); }
  std::uint64_t rng_;
  std::uint64_t hash_ = 0;
  int budget_;
};

struct Edge {
  int from;
  int to;
  Time latency;
  std::size_t capacity;
};

struct Outcome {
  std::vector<std::uint64_t> log;
  Time end_time = 0;
  std::uint64_t total_ticks = 0;
  std::uint64_t messages = 0;
  std::uint64_t instants = 0;
  std::uint64_t parallel_instants = 0;
};

// Builds the network described by `topology_seed`, registering components and ports in an order
// shuffled by `order_seed` (0 keeps the natural order), and runs it.
Outcome simulate(unsigned threads, std::uint64_t order_seed, std::uint64_t topology_seed = 1,
                 bool serial_fallback = false) {
  constexpr int kNodes = 96;
  Engine engine(
      {.threads = threads, .parallel_threshold = 2, .serial_fallback = serial_fallback});
  const ClockDomain* domains[] = {&engine.add_clock_domain("sm", 1'980'000),
                                  &engine.add_clock_domain("l2", 1'600'000),
                                  &engine.add_clock_domain("mem", 3'200'000)};
  std::mt19937_64 topo(topology_seed);
  std::vector<std::unique_ptr<Node>> nodes;
  for (int i = 0; i < kNodes; ++i) {
    // Most nodes share the sm clock so that many are due in the same instant.
    const ClockDomain& d = *domains[i % 4 == 3 ? 1 + (i / 4) % 2 : 0];
    nodes.push_back(std::make_unique<Node>("net.node[" + std::to_string(i) + "]", d, 150));
  }
  std::vector<Edge> edges;
  for (int i = 0; i < kNodes; ++i) {
    for (int k = 1; k <= 3; ++k) {
      const int to = static_cast<int>((i + k * (1 + topo() % 31)) % kNodes);
      if (std::any_of(edges.begin(), edges.end(),
                      [&](const Edge& e) { return e.from == i && e.to == to; })) {
        continue;
      }
      edges.push_back({i, to, 1 + topo() % 3000, static_cast<std::size_t>(topo() % 4)});
    }
  }
  std::vector<int> node_order(kNodes);
  std::iota(node_order.begin(), node_order.end(), 0);
  std::vector<std::size_t> edge_order(edges.size());
  std::iota(edge_order.begin(), edge_order.end(), 0);
  if (order_seed != 0) {
    std::mt19937_64 shuffle(order_seed);
    std::shuffle(node_order.begin(), node_order.end(), shuffle);
    std::shuffle(edge_order.begin(), edge_order.end(), shuffle);
  }
  for (const int i : node_order) engine.add(*nodes[i]);
  for (const std::size_t e : edge_order) {
    Node& from = *nodes[edges[e].from];
    Node& to = *nodes[edges[e].to];
    Port<Msg>& port = engine.connect<Msg>(
        from, to, {.latency_ps = edges[e].latency, .capacity = edges[e].capacity});
    from.outputs.push_back(&port);
    to.inputs.push_back(&port);
  }
  // A model lists its ports in a canonical order (here: by the peer's name).
  for (auto& n : nodes) {
    std::sort(n->inputs.begin(), n->inputs.end(),
              [](auto* a, auto* b) { return a->sender().name() < b->sender().name(); });
    std::sort(n->outputs.begin(), n->outputs.end(),
              [](auto* a, auto* b) { return a->receiver().name() < b->receiver().name(); });
  }
  Outcome out;
  out.end_time = engine.run().end_time;
  out.total_ticks = engine.total_ticks();
  out.instants = engine.instants();
  out.parallel_instants = engine.parallel_instants();
  for (auto& n : nodes) {
    out.log.push_back(n->tick_count());
    out.log.insert(out.log.end(), n->log.begin(), n->log.end());
    for (const Port<Msg>* p : n->outputs) out.messages += p->popped_count();
  }
  return out;
}

void expect_same(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.end_time, b.end_time);
  EXPECT_EQ(a.total_ticks, b.total_ticks);
  EXPECT_EQ(a.messages, b.messages);
  EXPECT_EQ(a.instants, b.instants);
  EXPECT_TRUE(a.log == b.log);
}

TEST(EngineDeterminism, ParallelRunsEqualTheSerialRunBitForBit) {
  const Outcome serial = simulate(1, 0);
  EXPECT_GT(serial.messages, 10000u);
  EXPECT_GT(serial.total_ticks, 12000u);
  EXPECT_GT(serial.total_ticks, serial.instants * 4);  // several components due per instant
  EXPECT_EQ(serial.parallel_instants, 0u);
  for (const unsigned threads : {2u, 4u}) {
    SCOPED_TRACE(threads);
    const Outcome parallel = simulate(threads, 0);
    EXPECT_GT(parallel.parallel_instants, serial.instants / 2);
    expect_same(serial, parallel);
    // With the serial fallback (on by default) some instants may run serially: same results.
    expect_same(serial, simulate(threads, 0, 1, true));
  }
  expect_same(serial, simulate(1, 0));
}

TEST(EngineDeterminism, RegistrationOrderDoesNotChangeResults) {
  const Outcome natural = simulate(1, 0);
  for (const std::uint64_t order : {17u, 4242u}) {
    SCOPED_TRACE(order);
    expect_same(natural, simulate(1, order));
    expect_same(natural, simulate(4, order));
  }
}

TEST(EngineDeterminism, FingerprintDetectsADifferentNetwork) {
  const Outcome a = simulate(1, 0, 1);
  const Outcome b = simulate(1, 0, 2);
  EXPECT_FALSE(a.log == b.log);
}

}  // namespace
}  // namespace warpsim::engine
