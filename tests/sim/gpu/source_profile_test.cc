#include "sim/gpu/source_profile.h"

#include <gtest/gtest.h>

#include <sstream>

#include "arch/loader.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "workloads/workload.h"

namespace warpsim::gpu {
namespace {

using core::StallReason;

std::uint64_t cycles(const SourceRow& row, StallReason r) {
  return row.warp_cycles[static_cast<std::size_t>(r)];
}

core::StallEvent stall(int slot, StallReason reason, std::uint64_t n) {
  return core::StallEvent{0, slot, reason, 0, n};
}

core::IssueEvent issue(int slot, std::uint32_t pc) {
  core::IssueEvent e;
  e.warp_slot = slot;
  e.pc = pc;
  return e;
}

TEST(GpuSourceProfile, AStallGoesToTheInstructionThatEndsItByIssuing) {
  SourceProfile p(1);
  p.start_kernel("k", nullptr);
  core::Observer& o = p.observer(0);
  o.on_issue(issue(3, 0x10));
  o.on_stall(stall(3, StallReason::kSelected, 1));  // after the fact: counted per issue instead
  o.on_stall(stall(3, StallReason::kWait, 4));
  o.on_stall(stall(3, StallReason::kLongScoreboard, 300));
  o.on_stall(stall(5, StallReason::kNotSelected, 2));  // another warp: its own next PC
  o.on_issue(issue(3, 0x20));
  o.on_issue(issue(5, 0x10));
  o.on_stall(stall(3, StallReason::kDrain, 40));  // after its last issue: that instruction's
  p.end_kernel();
  const KernelSourceProfile& k = p.kernels().at(0);
  ASSERT_EQ(k.rows.size(), 2u);
  const SourceRow& first = *k.find(0x10);
  EXPECT_EQ(first.executions, 2u);
  EXPECT_EQ(cycles(first, StallReason::kSelected), 2u);
  EXPECT_EQ(cycles(first, StallReason::kNotSelected), 2u);
  EXPECT_EQ(cycles(first, StallReason::kWait), 0u);
  const SourceRow& second = *k.find(0x20);
  EXPECT_EQ(second.executions, 1u);
  EXPECT_EQ(cycles(second, StallReason::kWait), 4u);
  EXPECT_EQ(cycles(second, StallReason::kLongScoreboard), 300u);
  EXPECT_EQ(cycles(second, StallReason::kDrain), 40u);
  EXPECT_EQ(k.total_warp_cycles(), 2u + 2 + 1 + 4 + 300 + 40);
  EXPECT_EQ(k.find(0x30), nullptr);
}

TEST(GpuSourceProfile, TheSmsTablesAreSummedPerPc) {
  SourceProfile p(2);
  p.start_kernel("k", nullptr);
  p.observer(0).on_issue(issue(0, 0x40));
  p.observer(1).on_stall(stall(0, StallReason::kBarrier, 9));
  p.observer(1).on_issue(issue(0, 0x40));
  p.end_kernel();
  const SourceRow& row = p.kernels().at(0).rows.at(0);
  EXPECT_EQ(row.executions, 2u);
  EXPECT_EQ(cycles(row, StallReason::kBarrier), 9u);
  std::ostringstream csv;
  p.write_csv(csv);
  EXPECT_NE(csv.str().find("kernel,pc,opcode,executions,stall_selected,stall_not_selected,"),
            std::string::npos);
  EXPECT_NE(csv.str().find("\"k\",0x00040,op0,2,2,0,"), std::string::npos) << csv.str();
}

// Over a whole simulation the per-PC cycles are the kernel's stall counters, reason by reason,
// and the executions its warp instructions, for any thread count.
TEST(GpuSourceProfile, PerPcCyclesSumToTheKernelsStallCounters) {
  const GpuConfig config = gpu_config_from_spec(arch::load_spec("h200").spec);
  std::vector<KernelSourceProfile> runs;
  for (unsigned threads : {1u, 2u}) {
    const workloads::Workload& w = workloads::find_workload("reduce_shared_tree");
    auto source = w.make_source(
        workloads::Params::parse(w.params(), {"n=262144", "ctas=264"}, "reduce_shared_tree"));
    SourceProfile profile(config.sms);
    SimulationOptions options;
    options.threads = threads;
    options.source_profile = &profile;
    const auto reports = simulate(config, *source, options);
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_EQ(profile.kernels().size(), 1u);
    const KernelSourceProfile& k = profile.kernels()[0];
    // The kernel's counters: warp instructions, and warp-cycles per instruction per reason.
    const auto metric = [&](const std::string& name) {
      const stats::Sample* m = reports[0].snapshot.find(name);
      EXPECT_NE(m, nullptr) << name;
      return m != nullptr ? stats::to_double(m->value) : -1.0;
    };
    const double executions = metric("smsp__inst_executed.sum");
    std::array<std::uint64_t, core::kStallReasonCount> per_pc{};
    std::uint64_t per_pc_executions = 0;
    for (const SourceRow& row : k.rows) {
      per_pc_executions += row.executions;
      for (std::size_t r = 0; r < per_pc.size(); ++r) per_pc[r] += row.warp_cycles[r];
    }
    EXPECT_GT(executions, 0);
    EXPECT_EQ(static_cast<double>(per_pc_executions), executions);
    for (int r = 0; r < core::kStallReasonCount; ++r) {
      const std::string reason(core::stall_reason_name(static_cast<StallReason>(r)));
      const double counted =
          metric("smsp__average_warp_latency_issue_stalled_" + reason) * executions;
      EXPECT_NEAR(static_cast<double>(per_pc[static_cast<std::size_t>(r)]), counted,
                  1e-9 * counted + 1e-6)
          << reason;
    }
    runs.push_back(k);
  }
  ASSERT_EQ(runs[0].rows.size(), runs[1].rows.size());
  for (std::size_t i = 0; i < runs[0].rows.size(); ++i) {
    EXPECT_EQ(runs[0].rows[i].pc, runs[1].rows[i].pc);
    EXPECT_EQ(runs[0].rows[i].warp_cycles, runs[1].rows[i].warp_cycles);
  }
}

}  // namespace
}  // namespace warpsim::gpu

namespace warpsim::gpu {
namespace {

// Recording the source page must not change the run it records: a 1024² naive transpose, whose
// column stores keep warps waiting for the LSU queue, took 40,540 cycles with the profile and
// 40,509 without it while the SM skipped evaluations it knew in advance only without an observer.
TEST(GpuSourceProfile, RecordingLeavesTheCyclesAlone) {
  const GpuConfig config = gpu_config_from_spec(arch::load_spec("h200").spec);
  std::vector<std::string> runs;
  for (bool recorded : {false, true}) {
    const workloads::Workload& w = workloads::find_workload("transpose_naive");
    auto source =
        w.make_source(workloads::Params::parse(w.params(), {"n=1024"}, "transpose_naive"));
    SourceProfile profile(config.sms);
    SimulationOptions options;
    options.threads = 2;
    if (recorded) options.source_profile = &profile;
    const auto reports = simulate(config, *source, options);
    ASSERT_EQ(reports.size(), 1u);
    const stats::Sample* c = reports[0].snapshot.find("gpc__cycles_elapsed.max");
    ASSERT_NE(c, nullptr);
    runs.push_back(std::to_string(stats::to_double(c->value)));
  }
  EXPECT_EQ(runs[0], runs[1]);
}

}  // namespace
}  // namespace warpsim::gpu
