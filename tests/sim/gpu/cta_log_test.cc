#include "sim/gpu/cta_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <tuple>

#include "arch/error.h"
#include "arch/loader.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "workloads/workload.h"

namespace warpsim::gpu {
namespace {

core::CtaEvent cta(std::uint64_t cycle, int sm, int slot, std::uint32_t x) {
  return core::CtaEvent{cycle, sm, slot, traces::Dim3{x, 0, 0}, 4};
}

TEST(GpuCtaLog, RecordsEachCtaOnceOrderedByLaunchThenSmThenSlot) {
  CtaLog log(2);
  log.start_kernel("k");
  log.observer(1).on_cta_launch(cta(0, 1, 0, 1));
  log.observer(0).on_cta_launch(cta(0, 0, 1, 0));
  log.observer(0).on_cta_launch(cta(0, 0, 0, 2));
  log.observer(0).on_cta_retire(cta(90, 0, 1, 0));
  log.observer(0).on_cta_launch(cta(90, 0, 1, 3));  // the freed slot takes the next CTA
  log.observer(1).on_cta_retire(cta(70, 1, 0, 1));
  log.observer(0).on_cta_retire(cta(120, 0, 0, 2));
  log.observer(0).on_cta_retire(cta(200, 0, 1, 3));
  log.end_kernel();
  const std::vector<CtaRecord>& c = log.kernels().at(0).ctas;
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(std::make_tuple(c[0].index.x, c[0].sm, c[0].slot, c[0].launch, c[0].retire),
            std::make_tuple(2u, 0, 0, 0ull, 120ull));
  EXPECT_EQ(std::make_tuple(c[1].index.x, c[1].sm, c[1].slot, c[1].retire),
            std::make_tuple(0u, 0, 1, 90ull));
  EXPECT_EQ(std::make_tuple(c[2].index.x, c[2].sm, c[2].retire), std::make_tuple(1u, 1, 70ull));
  EXPECT_EQ(std::make_tuple(c[3].index.x, c[3].launch, c[3].retire),
            std::make_tuple(3u, 90ull, 200ull));
  std::ostringstream tsv;
  log.write_tsv(tsv);
  EXPECT_EQ(tsv.str(),
            "kernel\tcta_x\tcta_y\tcta_z\tsm\tslot\tlaunch_cycle\tretire_cycle\n"
            "k\t2\t0\t0\t0\t0\t0\t120\n"
            "k\t0\t0\t0\t0\t1\t0\t90\n"
            "k\t1\t0\t0\t1\t0\t0\t70\n"
            "k\t3\t0\t0\t0\t1\t90\t200\n");
}

TEST(GpuCtaLog, ACtaStillResidentOrNeverLaunchedIsAnInternalError) {
  CtaLog log(1);
  log.start_kernel("k");
  EXPECT_THROW(log.observer(0).on_cta_retire(cta(5, 0, 3, 0)), InternalError);
  log.observer(0).on_cta_launch(cta(0, 0, 0, 0));
  EXPECT_THROW(log.end_kernel(), InternalError);
}

// A whole simulation: every CTA of the grid once, on the SM that ran it, within the kernel's
// elapsed cycles; the same log for any thread count, and the same cycles as without a log.
TEST(GpuCtaLog, ASimulationLogsEveryCtaTheSameForAnyThreadCount) {
  const GpuConfig config = gpu_config_from_spec(arch::load_spec("h200").spec);
  std::vector<std::string> logs;
  std::vector<double> elapsed;
  for (unsigned threads : {1u, 2u, 0u}) {  // 0: one thread, no log
    const workloads::Workload& w = workloads::find_workload("reduce_shared_tree");
    auto source = w.make_source(
        workloads::Params::parse(w.params(), {"n=262144", "ctas=400"}, "reduce_shared_tree"));
    CtaLog log(config.sms);
    SimulationOptions options;
    options.threads = std::max(1u, threads);
    if (threads != 0) options.cta_log = &log;
    const auto reports = simulate(config, *source, options);
    ASSERT_EQ(reports.size(), 1u);
    const stats::Sample* cycles = reports[0].snapshot.find("gpc__cycles_elapsed.max");
    ASSERT_NE(cycles, nullptr);
    elapsed.push_back(stats::to_double(cycles->value));
    if (threads == 0) continue;
    ASSERT_EQ(log.kernels().size(), 1u);
    const std::vector<CtaRecord>& c = log.kernels()[0].ctas;
    ASSERT_EQ(c.size(), 400u);
    std::set<std::uint32_t> seen;
    std::set<int> sms;
    for (const CtaRecord& r : c) {
      seen.insert(r.index.x);
      sms.insert(r.sm);
      EXPECT_LT(r.launch, r.retire);
      EXPECT_LE(static_cast<double>(r.retire), elapsed.back());
    }
    EXPECT_EQ(seen.size(), 400u);
    EXPECT_EQ(sms.size(), static_cast<std::size_t>(config.sms));
    // The first wave is placed at cycle 0 and launches once the SM's CTA launch is done.
    EXPECT_EQ(c.front().launch, config.dispatch.cta_launch_cycles + 1);
    std::ostringstream tsv;
    log.write_tsv(tsv);
    logs.push_back(tsv.str());
  }
  EXPECT_EQ(logs[0], logs[1]);
  EXPECT_EQ(elapsed[0], elapsed[1]);
  EXPECT_EQ(elapsed[0], elapsed[2]);
}

}  // namespace
}  // namespace warpsim::gpu
