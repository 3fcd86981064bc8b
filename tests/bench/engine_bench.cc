// Engine throughput: events (ticks) per second for a ring of components passing messages, for many
// mostly-idle components (idle ones cost nothing), and for wide instants evaluated in parallel.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/engine.h"

namespace warpsim::engine {
namespace {

// Forwards every token it receives to the next component in the ring.
class RingNode : public Component {
 public:
  RingNode(std::string name, const ClockDomain& d) : Component(std::move(name), d) {}
  Cycle tick(Cycle /*now*/) override {
    while (in->has_message()) out->send(in->pop() + 1);
    note_progress();
    return kSleep;
  }
  Port<std::uint64_t>* in = nullptr;
  Port<std::uint64_t>* out = nullptr;
};

void BM_Ring(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  std::vector<std::unique_ptr<RingNode>> nodes;
  for (int i = 0; i < n; ++i) {
    nodes.push_back(std::make_unique<RingNode>("ring.node[" + std::to_string(i) + "]", sm));
    engine.add(*nodes.back(), Start::kAsleep);
  }
  for (int i = 0; i < n; ++i) {
    RingNode& from = *nodes[i];
    RingNode& to = *nodes[(i + 1) % n];
    from.out = &engine.connect<std::uint64_t>(from, to, {.latency_ps = sm.duration(1 + i % 3)});
    to.in = from.out;
  }
  for (int i = 0; i < n; i += 4) nodes[i]->out->send(0);  // a token every fourth node
  const Time slice = sm.duration(10'000);
  for (auto _ : state) {
    engine.run({.until = engine.now() + slice});
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(engine.total_ticks()));
  state.counters["events"] = static_cast<double>(engine.total_ticks());
}
BENCHMARK(BM_Ring)->Arg(64)->Arg(1024);

// Ticks every `period` cycles; most instances have a huge period.
class Periodic : public Component {
 public:
  Periodic(std::string name, const ClockDomain& d, Cycle period)
      : Component(std::move(name), d), period_(period) {}
  Cycle tick(Cycle now) override {
    note_progress();
    return now + period_;
  }

 private:
  Cycle period_;
};

void BM_MostlyIdle(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  const ClockDomain& mem = engine.add_clock_domain("mem", 3'200'000);
  std::vector<std::unique_ptr<Periodic>> parts;
  for (int i = 0; i < n; ++i) {
    const bool active = i % 100 == 0;  // 1 % tick every cycle, the rest every 100000 cycles
    parts.push_back(std::make_unique<Periodic>("part[" + std::to_string(i) + "]", i % 2 ? sm : mem,
                                               active ? 1 : 100'000));
    engine.add(*parts.back());
  }
  const Time slice = sm.duration(10'000);
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    engine.run({.until = engine.now() + slice});
    cycles += 10'000;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(engine.total_ticks()));
  state.counters["events"] = static_cast<double>(engine.total_ticks());
  state.counters["sm_cycles/s"] =
      benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MostlyIdle)->Arg(10'000);

// Every component is due every cycle and does a little work: the parallel evaluate phase.
class Busy : public Component {
 public:
  Busy(std::string name, const ClockDomain& d) : Component(std::move(name), d) {}
  Cycle tick(Cycle now) override {
    for (int i = 0; i < 200; ++i) state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    note_progress();
    return now + 1;
  }
  std::uint64_t state_ = 1;
};

void BM_WideInstants(benchmark::State& state) {
  Engine engine({.threads = static_cast<unsigned>(state.range(0)), .parallel_threshold = 16});
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  std::vector<std::unique_ptr<Busy>> parts;
  for (int i = 0; i < 512; ++i) {
    parts.push_back(std::make_unique<Busy>("sm[" + std::to_string(i) + "]", sm));
    engine.add(*parts.back());
  }
  const Time slice = sm.duration(100);
  for (auto _ : state) {
    engine.run({.until = engine.now() + slice});
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(engine.total_ticks()));
}
BENCHMARK(BM_WideInstants)->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
}  // namespace warpsim::engine
