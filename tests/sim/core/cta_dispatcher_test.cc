// CTA dispatch: occupancy limits, round-robin placement (in index order or a given SM order),
// refill on retire, every CTA exactly once, clusters placed together, and kernels in sequence with
// the launch overhead.
#include "sim/core/cta_dispatcher.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "arch/error.h"
#include "tests/sim/core/sm_test_bench.h"
#include "traces/in_memory_source.h"

namespace warpsim::core {
namespace {

using engine::Cycle;
using testing::MockMemoryPipeline;
using testing::RecordingObserver;
using traces::gpr;
using traces::WarpBuilder;

// A kernel whose CTA with linear index i runs a dependent FFMA chain of length 2 + i % 3.
traces::KernelTrace chain_kernel(const std::string& name, std::uint32_t ctas, std::uint32_t threads,
                                 traces::Dim3 cluster = {1, 1, 1}) {
  traces::KernelBuilder k(name, {ctas, 1, 1}, {threads, 1, 1});
  k.info().registers_per_thread = 32;
  k.info().cluster = cluster;
  k.fill_grid([](WarpBuilder& w, const traces::CtaTrace& cta, std::uint32_t) {
    for (std::uint32_t i = 0; i < 2 + cta.index.x % 3; ++i) {
      w.add("FFMA", {gpr(1)}, {gpr(1), gpr(2), gpr(3)});
    }
    w.add("EXIT");
  });
  return std::move(k).build();
}

class GpuBench {
 public:
  GpuBench(int sms, std::vector<traces::KernelTrace> kernels, DispatcherConfig dispatch = {})
      : source_(std::move(kernels)), domain_(engine_.add_clock_domain("sm", 1'000'000)) {
    std::vector<Sm*> pointers;
    for (int i = 0; i < sms; ++i) {
      pipelines_.push_back(std::make_unique<MockMemoryPipeline>(100, 30));
      observers_.push_back(std::make_unique<RecordingObserver>());
      sms_.push_back(std::make_unique<Sm>("gpu.sm[" + std::to_string(i) + "]", domain_, i, config_,
                                          *pipelines_.back()));
      sms_.back()->set_observer(observers_.back().get());
      engine_.add(*sms_.back(), engine::Start::kAsleep);
      pointers.push_back(sms_.back().get());
    }
    dispatcher_ = std::make_unique<CtaDispatcher>("gpu.dispatcher", domain_, engine_, pointers,
                                                  source_, config_, dispatch);
    engine_.set_watchdog_cycles(100000, "sm");
  }

  void run() { engine_.run(); }
  CtaDispatcher& dispatcher() { return *dispatcher_; }
  RecordingObserver& observer(int sm) { return *observers_[static_cast<std::size_t>(sm)]; }
  Sm& sm(int i) { return *sms_[static_cast<std::size_t>(i)]; }

 private:
  SmConfig config_;
  traces::InMemoryKernelSource source_;
  engine::Engine engine_;
  const engine::ClockDomain& domain_;
  std::vector<std::unique_ptr<MockMemoryPipeline>> pipelines_;
  std::vector<std::unique_ptr<RecordingObserver>> observers_;
  std::vector<std::unique_ptr<Sm>> sms_;
  std::unique_ptr<CtaDispatcher> dispatcher_;
};

// Most CTAs resident at once on `o`'s SM.
int max_resident(const RecordingObserver& o) {
  std::map<Cycle, int> delta;
  for (const CtaEvent& e : o.launches) ++delta[e.cycle];
  for (const CtaEvent& e : o.retires) --delta[e.cycle];
  int now = 0;
  int most = 0;
  for (const auto& [cycle, d] : delta) {
    now += d;
    most = std::max(most, now);
  }
  return most;
}

TEST(CoreDispatch, RoundRobinWithinTheOccupancyLimitAndRefill) {
  std::vector<traces::KernelTrace> kernels;
  kernels.push_back(chain_kernel("k", 20, 1024));  // 32 warps: 2 CTAs per SM
  GpuBench gpu(3, std::move(kernels));
  gpu.run();
  ASSERT_EQ(gpu.dispatcher().kernels().size(), 1u);
  const KernelRecord& r = gpu.dispatcher().kernels()[0];
  EXPECT_EQ(r.occupancy.ctas_per_sm, 2);
  EXPECT_EQ(r.ctas, 20u);
  std::multiset<std::uint32_t> seen;
  for (int sm = 0; sm < 3; ++sm) {
    EXPECT_LE(max_resident(gpu.observer(sm)), 2);
    EXPECT_EQ(max_resident(gpu.observer(sm)), 2);
    for (const CtaEvent& e : gpu.observer(sm).launches) seen.insert(e.index.x);
  }
  std::multiset<std::uint32_t> all;
  for (std::uint32_t i = 0; i < 20; ++i) all.insert(i);
  EXPECT_EQ(seen, all);  // every CTA exactly once
  // The first wave goes round robin: CTA i to SM i mod 3, all at cycle 1.
  for (int sm = 0; sm < 3; ++sm) {
    const auto& l = gpu.observer(sm).launches;
    EXPECT_EQ(l.at(0).index.x, static_cast<std::uint32_t>(sm));
    EXPECT_EQ(l.at(1).index.x, static_cast<std::uint32_t>(sm + 3));
    EXPECT_EQ(l.at(0).cycle, 1u);
    // Refill: the SM's third CTA becomes resident one cycle after its first retired.
    EXPECT_EQ(l.at(2).cycle, gpu.observer(sm).retires.at(0).cycle + 1);
  }
  EXPECT_DOUBLE_EQ(r.achieved_occupancy_pct(), 100.0 * static_cast<double>(r.warps_active_sum) /
                                                   (static_cast<double>(r.cycles_active_sum) * 64));
  EXPECT_GT(r.achieved_occupancy_pct(), 30.0);
  EXPECT_TRUE(gpu.dispatcher().done());
}

TEST(CoreDispatch, TheSmOrderDecidesWhereTheRoundRobinGoes) {
  std::vector<traces::KernelTrace> kernels;
  kernels.push_back(chain_kernel("k", 6, 1024));  // 2 CTAs per SM
  DispatcherConfig dispatch;
  dispatch.sm_order = {2, 0, 1};
  GpuBench gpu(3, std::move(kernels), dispatch);
  gpu.run();
  // CTAs 0, 1, 2 go to SMs 2, 0, 1, and the second round (3, 4, 5) the same way, all at cycle 1.
  const int expected_first[] = {1, 2, 0};  // SM 0, 1, 2's first CTA
  for (int sm = 0; sm < 3; ++sm) {
    const auto& l = gpu.observer(sm).launches;
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(l.at(0).index.x, static_cast<std::uint32_t>(expected_first[sm]));
    EXPECT_EQ(l.at(1).index.x, static_cast<std::uint32_t>(expected_first[sm] + 3));
    EXPECT_EQ(l.at(1).cycle, 1u);
  }
}

TEST(CoreDispatch, AGridSmallerThanTheGpuRunsOnThePrioritySmsInOrder) {
  DispatcherConfig dispatch;
  dispatch.sm_order = {3, 1, 0, 2};
  dispatch.sm_priority = {2, 1, 0, 3};
  std::vector<traces::KernelTrace> kernels;
  kernels.push_back(chain_kernel("small", 2, 32));  // SMs 2 and 1, visited as the order has them
  kernels.push_back(chain_kernel("whole", 4, 32));  // every SM, from the head of the order
  GpuBench gpu(4, std::move(kernels), dispatch);
  gpu.run();
  const auto first_cta = [&](int sm, std::size_t k) {
    return gpu.observer(sm).launches.at(k).index.x;
  };
  EXPECT_EQ(gpu.observer(3).launches.size(), 1u);  // only the second kernel's
  EXPECT_EQ(gpu.observer(0).launches.size(), 1u);
  EXPECT_EQ(first_cta(1, 0), 0u);
  EXPECT_EQ(first_cta(2, 0), 1u);
  EXPECT_EQ(first_cta(3, 0), 0u);
  EXPECT_EQ(first_cta(1, 1), 1u);
  EXPECT_EQ(first_cta(0, 0), 2u);
  EXPECT_EQ(first_cta(2, 1), 3u);
}

TEST(CoreDispatch, AnSmOrderThatMissesOrRepeatsAnSmIsAnInputError) {
  for (const std::vector<int>& order :
       {std::vector<int>{0, 1}, std::vector<int>{0, 1, 1}, std::vector<int>{0, 1, 3}}) {
    DispatcherConfig dispatch;
    dispatch.sm_order = order;
    std::vector<traces::KernelTrace> kernels;
    kernels.push_back(chain_kernel("k", 1, 32));
    EXPECT_THROW(GpuBench(3, std::move(kernels), dispatch), InputError);
  }
}

TEST(CoreDispatch, KernelsRunInSequenceWithTheLaunchOverhead) {
  std::vector<traces::KernelTrace> kernels;
  kernels.push_back(chain_kernel("first", 4, 64));
  kernels.push_back(chain_kernel("second", 4, 64));
  DispatcherConfig dispatch;
  dispatch.kernel_launch_overhead_cycles = 500;
  GpuBench gpu(2, std::move(kernels), dispatch);
  gpu.run();
  const auto& k = gpu.dispatcher().kernels();
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].name, "first");
  EXPECT_EQ(k[1].name, "second");
  EXPECT_EQ(k[0].start, 1u);
  // The second kernel's CTAs become resident one cycle after its start cycle is reached.
  EXPECT_EQ(k[1].start, k[0].end + 500 + 1);
  EXPECT_GT(k[1].end, k[1].start);
  for (int sm = 0; sm < 2; ++sm) {
    for (const CtaEvent& e : gpu.observer(sm).launches) {
      if (e.cycle > k[0].end) {
        EXPECT_EQ(e.cycle, k[1].start);
      }
    }
  }
}

TEST(CoreDispatch, ACtaHoldsItsSlotForTheLaunchCyclesBeforeIssuing) {
  std::vector<traces::KernelTrace> kernels;
  kernels.push_back(chain_kernel("k", 20, 1024));  // 32 warps: 2 CTAs per SM
  DispatcherConfig dispatch;
  dispatch.cta_launch_cycles = 40;
  GpuBench gpu(3, std::move(kernels), dispatch);
  gpu.run();
  const KernelRecord& r = gpu.dispatcher().kernels().at(0);
  EXPECT_EQ(r.ctas, 20u);
  for (int sm = 0; sm < 3; ++sm) {
    const auto& l = gpu.observer(sm).launches;
    const auto& retires = gpu.observer(sm).retires;
    EXPECT_EQ(max_resident(gpu.observer(sm)), 2);  // the slot is held while launching
    EXPECT_EQ(l.at(0).cycle, 1u + 40);             // placed at cycle 0, issuing 40 cycles later
    // Refill: placed the cycle after the first retirement, issuing 40 cycles after that.
    EXPECT_EQ(l.at(2).cycle, retires.at(0).cycle + 1 + 40);
  }
  EXPECT_TRUE(gpu.dispatcher().done());
}

TEST(CoreDispatch, ClusterCtasArePlacedTogether) {
  std::vector<traces::KernelTrace> kernels;
  // 1024 threads: 2 CTAs per SM; 3 SMs hold 6; clusters of 4 → only one cluster fits at first.
  kernels.push_back(chain_kernel("clustered", 8, 1024, {4, 1, 1}));
  GpuBench gpu(3, std::move(kernels));
  gpu.run();
  std::map<std::uint32_t, Cycle> launched;
  for (int sm = 0; sm < 3; ++sm) {
    for (const CtaEvent& e : gpu.observer(sm).launches) launched[e.index.x] = e.cycle;
  }
  ASSERT_EQ(launched.size(), 8u);
  for (std::uint32_t c = 0; c < 8; c += 4) {
    for (std::uint32_t i = 1; i < 4; ++i) EXPECT_EQ(launched[c + i], launched[c]);
  }
  EXPECT_GT(launched[4], launched[0]);
}

TEST(CoreDispatch, ATraceWithTooFewCtasIsAnInputError) {
  std::vector<traces::KernelTrace> kernels;
  kernels.push_back(chain_kernel("short", 4, 64));
  kernels[0].ctas.pop_back();
  GpuBench gpu(1, std::move(kernels));
  EXPECT_THROW(gpu.run(), InputError);
}

}  // namespace
}  // namespace warpsim::core
