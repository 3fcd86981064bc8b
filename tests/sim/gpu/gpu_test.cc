#include "sim/gpu/gpu.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "arch/error.h"
#include "arch/loader.h"
#include "sim/gpu/gpu_config.h"
#include "sim/gpu/timeline.h"
#include "traces/builder.h"
#include "traces/in_memory_source.h"
#include "workloads/workload.h"

namespace warpsim::gpu {
namespace {

GpuConfig h200() { return gpu_config_from_spec(arch::load_spec("h200").spec); }

std::vector<stats::KernelReport> run(const GpuConfig& config, const std::string& model,
                                     std::vector<std::string> params, unsigned threads = 1,
                                     Timeline* timeline = nullptr, std::uint32_t piece = 512) {
  const workloads::Workload& w = workloads::find_workload(model);
  auto source = w.make_source(workloads::Params::parse(w.params(), params, model));
  SimulationOptions options;
  options.threads = threads;
  options.timeline = timeline;
  options.warp_piece_instructions = piece;
  return simulate(config, *source, options);
}

void expect_same_metrics(const stats::KernelReport& a, const stats::KernelReport& b) {
  ASSERT_EQ(a.snapshot.metrics.size(), b.snapshot.metrics.size());
  for (size_t k = 0; k < a.snapshot.metrics.size(); ++k) {
    EXPECT_EQ(a.snapshot.metrics[k].value, b.snapshot.metrics[k].value)
        << a.snapshot.metrics[k].name;
  }
}

double metric(const stats::KernelReport& r, const std::string& name) {
  const stats::Sample* s = r.snapshot.find(name);
  EXPECT_NE(s, nullptr) << name;
  return s ? stats::to_double(s->value) : -1;
}

TEST(GpuConfig, H200FromItsDescription) {
  const GpuConfig c = h200();
  EXPECT_EQ(c.sms, 132);
  EXPECT_EQ(c.sm_mhz, 1960);
  EXPECT_EQ(c.memory_mhz, 3125);                     // 6.25 Gbit/s per pin, double data rate
  EXPECT_EQ(c.memory.dram_geometry.channels, 192u);  // 96 channels x 2 pseudo-channels
  EXPECT_EQ(c.memory.dram.bytes_per_cycle, 8u);
  EXPECT_EQ(c.memory.dram.burst_length, 8u);
  EXPECT_EQ(c.memory.l2_slices, 96u);
  EXPECT_EQ(c.memory.l2.tags.size_bytes, 62914560u / 96);
  EXPECT_TRUE(c.memory.l2.far_read_copies);
  EXPECT_TRUE(c.memory.l2.far_write_copies);
  // The L2 and its crossbars tick at 1693 MHz (0.8638 of an SM cycle each). Load-to-use 276 SM
  // cycles (fitted) = 2 port cycles + 2 x NoC 80 L2 cycles (185.2 SM cycles) + the slice's 77.
  EXPECT_EQ(c.l2_mhz, 1693);
  EXPECT_EQ(c.memory.l2.hit_latency_near_cycles, 77u);
  EXPECT_EQ(c.memory.l2.hit_latency_far_cycles, 207u);
  EXPECT_EQ(c.memory.dies, 1u);
  EXPECT_FALSE(c.memory.memory_side_cache);
  // HBM load-to-use 680 SM cycles (fitted, the average over near and far requesters) = the near
  // hit's path and half the far - near difference, 2 x crossbar 2, tRCD 45 + CL 45 + burst 8
  // DRAM cycles, and the rest, of which the slice answers a fill like a hit (78 L2 cycles, with
  // the rounding) and the memory crossbar takes 115 L2 cycles each way.
  EXPECT_EQ(c.memory.l2.fill_latency_cycles, 78u);
  EXPECT_EQ(c.memory.memory_crossbar.latency_cycles, 115u);
  EXPECT_EQ(c.dispatch.elapsed_overhead_cycles, 2891u);
  EXPECT_EQ(c.dispatch.cta_launch_cycles, 504u);
  // An SM starts its CTAs 17 cycles apart (validate/reference/h200/cta_start.tsv).
  EXPECT_EQ(c.sm.cta_launch_interval_cycles, 17);
  EXPECT_EQ(c.sm.register_reads_per_cycle, 2);
  // Shuffles time on the MIO path with their unit's latency (24, validate/reference/h200).
  EXPECT_EQ(c.sm_memory.shuffle_latency_cycles, 24);
  // A store leaves the SM 20 cycles after its last request, its data on the shared data path
  // (validate/reference/h200/store_drain_h100.tsv).
  EXPECT_EQ(c.sm_memory.l1_store_complete_cycles, 20);
  EXPECT_TRUE(c.sm_memory.l1_store_data_uses_shared_path);
  EXPECT_EQ(c.sm.limits.max_warps_per_sm, 64);
  EXPECT_EQ(c.sm.tensor.dense_flop_per_clk_per_sm[0], 4096);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(GpuConfig, H200PlacesCtasAndSplitsSmsAsMeasured) {
  const GpuConfig c = h200();
  ASSERT_EQ(c.dispatch.sm_order.size(), 132u);
  EXPECT_EQ(c.dispatch.sm_order[0], 124);  // SMs 124-131 first, then a TPC of each GPC
  EXPECT_EQ(c.dispatch.sm_order[8], 6);
  EXPECT_EQ(c.dispatch.sm_order[9], 7);
  ASSERT_EQ(c.dispatch.sm_priority.size(), 132u);
  EXPECT_EQ(c.dispatch.sm_priority[8], 0);  // then the even SM of each TPC
  ASSERT_EQ(c.memory.sm_partitions.size(), 132u);
  EXPECT_EQ(c.memory.sm_partitions[0], c.memory.sm_partitions[124]);
  EXPECT_NE(c.memory.sm_partitions[2], c.memory.sm_partitions[124]);
  // A what-if with more SMs leaves the chip's tables out: index order, SMs split by index.
  arch::Spec spec = arch::load_spec("h200").spec;
  spec.mutable_sm()->set_count(144);
  const GpuConfig more = gpu_config_from_spec(spec);
  EXPECT_TRUE(more.dispatch.sm_order.empty());
  EXPECT_TRUE(more.dispatch.sm_priority.empty());
  EXPECT_TRUE(more.memory.sm_partitions.empty());
}

// The H100 preset's launch costs come from its own probes: a freed slot takes its next CTA 397
// cycles after the exit (cta_turnover_h100.tsv.gz), CTAs of one SM start 19 cycles apart
// (cta_spacing_h100.tsv.gz), and the one-warp launches of store_drain_h100.tsv fit 4042.
TEST(GpuConfig, H100LaunchCostsAsMeasuredOnTheH100) {
  const GpuConfig c = gpu_config_from_spec(arch::load_spec("h100").spec);
  EXPECT_EQ(c.dispatch.elapsed_overhead_cycles, 4042u);
  EXPECT_EQ(c.dispatch.cta_launch_cycles, 397u);
  EXPECT_EQ(c.sm.cta_launch_interval_cycles, 19);
}

TEST(GpuConfig, B200IsTwoDiesJoinedByALink) {
  const GpuConfig c = gpu_config_from_spec(arch::load_spec("b200").spec);
  EXPECT_EQ(c.memory.dies, 2u);
  EXPECT_FALSE(c.memory.l2_per_die);
  EXPECT_EQ(c.memory.l2_partitions, 1u);  // the dies are the partitions; the link is the distance
  EXPECT_EQ(c.memory.l2.hit_latency_far_cycles, c.memory.l2.hit_latency_near_cycles);
  EXPECT_EQ(c.memory.die_link.latency_cycles, 35u);
  EXPECT_EQ(c.memory.die_link.bytes_per_cycle, 2544u);    // 10 TB/s both ways, half each way
  EXPECT_EQ(c.memory.noc.total_bytes_per_cycle, 10240u);  // split per die by the assembly
  EXPECT_TRUE(c.warnings.empty());
}

TEST(GpuConfig, Mi300xHasPerXcdL2sAndAMemorySideCache) {
  const GpuConfig c = gpu_config_from_spec(arch::load_spec("mi300x").spec);
  EXPECT_EQ(c.memory.dies, 8u);
  EXPECT_TRUE(c.memory.l2_per_die);
  EXPECT_EQ(c.memory.die_link.bytes_per_cycle, 511u);  // 2150 GB/s per XCD, half each way
  EXPECT_TRUE(c.memory.memory_side_cache);
  EXPECT_EQ(c.memory.msc.tags.size_bytes, 268435456u / 256);  // one slice per pseudo channel
  // Load-to-use 500 less the L2 hit 250 and the link, ports and crossbar both ways.
  EXPECT_EQ(c.memory.msc.hit_latency_near_cycles, 250u - 2 * (100 + 2 + 2));
  EXPECT_EQ(c.memory.msc.sectors_per_cycle, 1u);
  EXPECT_EQ(c.memory.l2.fetch_sectors, 2u);  // 64-byte sectors
}

TEST(GpuConfig, MemorySideCacheSlicesMustMatchTheChannels) {
  arch::Spec spec = arch::load_spec("mi300x").spec;
  spec.mutable_memory_side_cache()->set_slices(100);
  try {
    gpu_config_from_spec(spec);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("memory_side_cache.slices"), std::string::npos)
        << e.what();
  }
}

TEST(GpuConfig, MissingFieldsNameThemselves) {
  arch::Spec spec = arch::load_spec("h200").spec;
  spec.mutable_sm()->clear_count();
  try {
    gpu_config_from_spec(spec);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sm.count"), std::string::npos) << e.what();
  }
}

TEST(GpuSimulate, CopyCountsAreExact) {
  const auto reports = run(h200(), "copy", {"n=4096"});
  ASSERT_EQ(reports.size(), 1u);
  const auto& r = reports[0];
  EXPECT_EQ(metric(r, "launch__grid_size"), 16);
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 128);  // one per warp
  EXPECT_EQ(metric(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 512);   // 16 KB / 32 B
  EXPECT_EQ(metric(r, "gpu.dram.bytes_read"), 16384);  // cold caches: every byte once
  EXPECT_EQ(metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio"), 32);
  EXPECT_GT(metric(r, "gpc__cycles_elapsed.max"), 300);  // at least one trip to DRAM and back
  EXPECT_GT(metric(r, "smsp__inst_executed.sum"), 128 * 5);
}

// ncu's DRAM counters add the GPU's own traffic over the kernel's simulated time to the kernel's.
TEST(GpuSimulate, DramCountersAddTheGpusOwnTrafficOverTheKernelsTime) {
  GpuConfig config = h200();
  config.dram_background = mem::DramBackground({{1e-3, 1e6, 2e6}});  // 1 and 2 GB/s
  const auto reports = run(config, "copy", {"n=4096"});
  ASSERT_EQ(reports.size(), 1u);
  const auto& r = reports[0];
  const double seconds = metric(r, "gpc__cycles_elapsed.max") / (config.sm_mhz * 1e6);
  EXPECT_EQ(metric(r, "gpu.dram.background_bytes_read"), std::llround(1e9 * seconds));
  EXPECT_EQ(metric(r, "gpu.dram.background_bytes_written"), std::llround(2e9 * seconds));
  EXPECT_EQ(metric(r, "dram__bytes_read.sum"), 16384 + std::llround(1e9 * seconds));
  EXPECT_EQ(metric(r, "dram__bytes_write.sum"), metric(r, "gpu.dram.bytes_written") +
                                                    std::llround(2e9 * seconds));
  config.dram_background = {};
  EXPECT_EQ(metric(run(config, "copy", {"n=4096"})[0], "dram__bytes_read.sum"), 16384);
}

// ncu's DRAM counters end with the kernel: its last CTA retired and its last write acknowledged.
// A stream of 4-byte stores, one per sector (partial_writes.cu's), over 4 MB: the one-line record
// of each slice gives up nearly every line, whose fills keep the DRAM reading, so their deferred
// write-backs wait and many leave after the kernel; the model writes them, and does not count them.
TEST(GpuSimulate, DramCountsEndWithTheKernel) {
  traces::KernelBuilder k("partial", {132, 1, 1}, {256, 1, 1});
  k.fill_grid([](traces::WarpBuilder& w, const traces::CtaTrace& cta, std::uint32_t warp) {
    for (std::uint64_t i = 0; i < 4; ++i) {
      const std::uint64_t base = 0x10000000 + ((cta.index.x * 8 + warp) * 4 + i) * 1024;
      w.mem("STG.E", {}, {traces::gpr(2), traces::gpr(4)},
            traces::strided_addresses(w.current_mask(), base, 32));
    }
    w.add("EXIT");
  });
  traces::InMemoryKernelSource source({std::move(k).build()});
  GpuConfig config = h200();
  config.memory.l2.partial_lines = {.entries = 1, .ways = 1};
  config.memory.dram.deferred_write_share = 0.5;
  const auto reports = simulate(config, source, SimulationOptions{});
  ASSERT_EQ(reports.size(), 1u);
  const auto& r = reports[0];
  EXPECT_GT(metric(r, "gpu.l2.partial_lines_given_up"), 0);
  EXPECT_GT(metric(r, "gpu.dram.bytes_written_after_end"), 0);
  EXPECT_EQ(metric(r, "dram__bytes_write.sum"), metric(r, "gpu.dram.bytes_written") +
                                                    metric(r, "gpu.dram.background_bytes_written"));
  // Every write-back leaves: the counted and the later bytes are the slices' write-backs.
  EXPECT_EQ(metric(r, "gpu.dram.bytes_written") + metric(r, "gpu.dram.bytes_written_after_end"),
            32 * metric(r, "gpu.l2.writeback_sectors"));
}

// ncu's per-SM spread: 16 CTAs of 8 warps on 132 SMs leave 116 SMs idle and give 16 one CTA each.
TEST(GpuSimulate, PerSmSpreadNamesTheBusiestAndTheIdlestSm) {
  const auto reports = run(h200(), "copy", {"n=4096"});
  ASSERT_EQ(reports.size(), 1u);
  const auto& r = reports[0];
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.max"), 8);
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.min"), 0);
  EXPECT_EQ(metric(r, "sm__cycles_active.min"), 0);
  EXPECT_GT(metric(r, "sm__cycles_active.max"), 300);
  EXPECT_LE(metric(r, "sm__cycles_active.avg") * 132, metric(r, "sm__cycles_active.max") * 16);
}

TEST(GpuSimulate, DeterministicForAnyThreadCount) {
  const GpuConfig c = h200();
  const auto a = run(c, "saxpy", {"n=65536"}, 1);
  const auto b = run(c, "saxpy", {"n=65536"}, 2);
  const auto d = run(c, "saxpy", {"n=65536"}, 1);
  expect_same_metrics(a[0], b[0]);
  expect_same_metrics(a[0], d[0]);
}

// gto_drawn's CTA priorities come from each SM's own stream: the same run on any thread count,
// and, with several CTAs an SM, not the run that launch order gives.
TEST(GpuSimulate, DrawnCtaPrioritiesAreTheSameForAnyThreadCount) {
  GpuConfig c = h200();
  c.sm.scheduler = "gto_drawn";
  const std::vector<std::string> params = {"m=512", "n=512", "k=64"};
  const auto a = run(c, "gemm_mma_bf16", params, 1);
  expect_same_metrics(a[0], run(c, "gemm_mma_bf16", params, 2)[0]);
  expect_same_metrics(a[0], run(c, "gemm_mma_bf16", params, 1)[0]);
  GpuConfig arrival = h200();
  arrival.sm.scheduler = "gto";
  EXPECT_NE(metric(a[0], "gpc__cycles_elapsed.max"),
            metric(run(arrival, "gemm_mma_bf16", params, 1)[0], "gpc__cycles_elapsed.max"));
}

// Warps generated a few instructions at a time as they run (bounded memory) time exactly as
// whole ones: divergent paths, a shared-memory reduction's barriers, and the wgmma GEMM's warpgroup
// operations, each with pieces of 2, 5 and 512 instructions, on one thread and two.
TEST(GpuSimulate, StreamedWarpsTimeExactlyAsWholeOnes) {
  const GpuConfig c = h200();
  const std::vector<std::pair<std::string, std::vector<std::string>>> points = {
      {"divergent_8way", {"ctas=8", "iters=16"}},
      {"reduce_shared_tree", {"n=65536", "ctas=16"}},
      {"gemm_wgmma_bf16", {"m=128", "n=256", "k=256"}}};
  for (const auto& [model, params] : points) {
    SCOPED_TRACE(model);
    const auto whole = run(c, model, params, 1, nullptr, 0);
    for (const std::uint32_t piece : {2u, 5u, 512u}) {
      SCOPED_TRACE(piece);
      expect_same_metrics(whole[0], run(c, model, params, 1, nullptr, piece)[0]);
    }
    expect_same_metrics(whole[0], run(c, model, params, 2, nullptr, 2)[0]);
  }
}

TEST(GpuSimulate, TheL2CountsTheReadSectorsItLooksUpAfterTheCoalescer) {
  const GpuConfig c = h200();
  // A copy reads each of its 65536 floats' 8192 sectors once: nothing to join.
  const auto copy = run(c, "copy", {"n=65536"});
  EXPECT_EQ(metric(copy[0], "lts__t_sectors_srcunit_tex_op_read.sum"), 8192);
  EXPECT_EQ(metric(copy[0], "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"),
            0);
  // FlashAttention's CTAs of one head read its K and V blocks together: the joined sectors are
  // not looked up.
  const auto fa = run(c, "flash_attention", {"heads=2", "seq=256"});
  const double arriving = metric(fa[0], "lrc__request_sectors_op_read_coalescable.sum");
  const double joined =
      metric(fa[0], "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum");
  EXPECT_GT(joined, 0);
  EXPECT_EQ(metric(fa[0], "lts__t_sectors_srcunit_tex_op_read.sum"), arriving - joined);
}

// The same copy twice in one run: its input stays in the L2 only with warm caches.
std::vector<stats::KernelReport> copy_twice(const GpuConfig& config, unsigned threads = 1) {
  const workloads::Workload& w = workloads::find_workload("copy");
  auto source = w.make_source(workloads::Params::parse(w.params(), {"n=65536"}, "copy"));
  traces::KernelTrace kernel;
  source->next_kernel(kernel.info);
  traces::CtaTrace cta;
  while (source->next_cta(cta)) kernel.ctas.push_back(cta);
  traces::InMemoryKernelSource twice({kernel, kernel}, "copy twice");
  SimulationOptions options;
  options.threads = threads;
  return simulate(config, twice, options);
}

TEST(GpuSimulate, WarmCachesCarryTheL2FromOneKernelToTheNext) {
  GpuConfig cold = h200();
  const auto c = copy_twice(cold);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(metric(c[1], "gpu.dram.bytes_read"), 65536 * 4);  // cold again: every byte read
  GpuConfig warm = cold;
  warm.warm_caches = true;
  const auto w = copy_twice(warm);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(metric(w[0], "gpu.dram.bytes_read"), 65536 * 4);  // the first kernel starts empty
  EXPECT_EQ(metric(w[1], "gpu.dram.bytes_read"), 0);          // the input is still there
  EXPECT_EQ(metric(w[1], "lts__t_sector_hit_rate.pct"), 100);  // and so is the output
  EXPECT_LT(metric(w[1], "gpc__cycles_elapsed.max"), metric(c[1], "gpc__cycles_elapsed.max"));
  // Carried state is deterministic across thread counts too.
  const auto w2 = copy_twice(warm, 2);
  EXPECT_EQ(metric(w2[1], "gpc__cycles_elapsed.max"), metric(w[1], "gpc__cycles_elapsed.max"));
}

// __threadfence() on GH100: MEMBAR.SC.GPU opens a fence that the ERRBAR after it closes, a round
// trip of sm.gpu_fence_cycles whatever the warp stored (validate/reference/h200/fence_h100.tsv.gz:
// one warp alone, 664 cycles between its clock reads around the fence with nothing stored, 733
// after 32 stores); the ERRBAR also waits until the L2 has acknowledged the warp's writes.
TEST(GpuSimulate, AGpuFenceIsARoundTripAndWaitsForTheWarpsWrites) {
  const auto elapsed = [](int stores, bool fence, int fence_cycles) {
    traces::KernelBuilder k("fence", {1, 1, 1}, {32, 1, 1});
    k.fill_grid([&](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
      for (int i = 0; i < stores; ++i) {
        w.mem("STG.E", {}, {traces::gpr(2), traces::gpr(4)},
              traces::strided_addresses(w.current_mask(), 0x10000000 + 4096 * i, 4));
      }
      if (fence) {
        w.add("MEMBAR.SC.GPU");
        w.add("ERRBAR");
        w.add("CGAERRBAR");
        w.add("CCTL.IVALL");
      }
      w.add("EXIT");
    });
    traces::InMemoryKernelSource source({std::move(k).build()});
    GpuConfig config = h200();
    config.sm.gpu_fence_cycles = fence_cycles;
    return metric(simulate(config, source, SimulationOptions{}).at(0), "gpc__cycles_elapsed.max");
  };
  const int preset = h200().sm.gpu_fence_cycles;
  EXPECT_EQ(preset, 655);
  // Alone: the round trip and the instructions after it, as the GPU's 664 cycles.
  const double alone = elapsed(0, true, preset) - elapsed(0, false, preset);
  EXPECT_GE(alone, 655);
  EXPECT_LE(alone, 670);
  // After one store the fence still takes its round trip (the GPU: 671).
  const double one = elapsed(1, true, preset) - elapsed(1, false, preset);
  EXPECT_GE(one, 650);
  EXPECT_LE(one, 680);
  // With no round trip configured the ERRBAR still waits for the store's acknowledgement, which
  // takes longer than the store's leaving the SM that EXIT waits for.
  EXPECT_GT(elapsed(1, true, 0) - elapsed(1, false, 0), 200);
  EXPECT_LT(elapsed(0, true, 0) - elapsed(0, false, 0), 20);
}

// The instruction fetch (sm.instruction_fetch, in no preset yet) against the H100 SXM's
// validate/reference/h200/icache_ncu_h100.tsv (under ncu's --cache-control all, as the reference):
// one warp runs a straight run of MOV + FFMA pairs (32 bytes of code a pair) once or twice, with
// code of the probe's sizes (31, 61, 122, 242 and 484 KB). The H100's cycles per 32 bytes, first
// pass: 4.17, 4.26, 16.1, 22.7, 26.5; second: 2.58 (its issue rate), 4.26, 4.29, 11.0, 11.0.
double fetch_cycles_per_pair(int pairs, bool second_pass, bool fetch = true) {
  const auto elapsed = [&](int passes) {
    traces::KernelBuilder k("straight", {1, 1, 1}, {32, 1, 1});
    k.fill_grid([&](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
      for (int pass = 0; pass < passes; ++pass) {
        w.pc(0x100);
        for (int i = 0; i < pairs; ++i) {
          const auto r = static_cast<std::uint32_t>(i % 8);
          w.add("MOV", {traces::gpr(20 + r)});
          // The constant moved four pairs before, as the compiler schedules it.
          w.add("FFMA", {traces::gpr(r)},
                {traces::gpr(r), traces::gpr(30), traces::gpr(20 + (r + 4) % 8)});
        }
      }
      w.add("EXIT");
    });
    traces::InMemoryKernelSource source({std::move(k).build()});
    GpuConfig config = h200();
    if (fetch) {
      config.sm.instruction_fetch = {.l0_bytes = 32768,
                                     .l1_bytes = 131072,
                                     .ways = 8,
                                     .l1_cycles = 28,
                                     .miss_cycles = 400,
                                     .line_cycles = 40,
                                     .cold_line_cycles = 115,
                                     .launch_bytes = 65536,
                                     .prefetch_lines = 16};
    }
    return metric(simulate(config, source, SimulationOptions{}).at(0), "gpc__cycles_elapsed.max");
  };
  const double one = elapsed(1);
  return second_pass ? (elapsed(2) - one) / pairs : (one - elapsed(0)) / pairs;
}

TEST(GpuSimulate, InstructionFetchFollowsTheH100) {
  const double issue = fetch_cycles_per_pair(972, true, false);
  EXPECT_DOUBLE_EQ(issue, 2.0);  // one instruction a cycle
  EXPECT_LE(fetch_cycles_per_pair(972, true), issue + 0.05);  // the first level holds it
  const auto near = [](double model, double h100) { return std::abs(model / h100 - 1) < 0.1; };
  // Run before: the second level streams a line to the first in 16-18 cycles; beyond it, every
  // line comes from the L2.
  EXPECT_PRED2(near, fetch_cycles_per_pair(1916, true), 4.26);
  EXPECT_PRED2(near, fetch_cycles_per_pair(3800, true), 4.29);
  EXPECT_PRED2(near, fetch_cycles_per_pair(7560, true), 11.0);
  // Never run: the launch's 64 KB come as fast as from the second level, the rest from DRAM.
  EXPECT_PRED2(near, fetch_cycles_per_pair(972, false), 4.17);
  EXPECT_PRED2(near, fetch_cycles_per_pair(1916, false), 4.26);
  EXPECT_PRED2(near, fetch_cycles_per_pair(3800, false), 16.1);
  EXPECT_PRED2(near, fetch_cycles_per_pair(7560, false), 22.7);
}

TEST(GpuSimulate, SeedTransposeTilesBankConflicts) {
  const GpuConfig c = h200();
  // Each warp reads one 32-float column of the tile per loop iteration: 32-way conflicts, 31
  // extra wavefronts per LDS; n=64 has 64*64/32 = 128 such LDS.
  const auto t32 = run(c, "transpose_tile32", {"n=64"});
  EXPECT_EQ(metric(t32[0], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 128 * 31);
  const auto t33 = run(c, "transpose_tile33", {"n=64"});
  EXPECT_EQ(metric(t33[0], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 0);
}

TEST(GpuTimeline, IsChromeTraceJson) {
  const GpuConfig c = h200();
  Timeline timeline(c.sms, c.sm_mhz);
  run(c, "divergent_2way", {"ctas=2", "iters=2"}, 1, &timeline);
  EXPECT_GT(timeline.recorded(), 0u);
  std::ostringstream out;
  timeline.write(out);
  google::protobuf::Struct json;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(out.str(), &json).ok());
  const auto& events = json.fields().at("traceEvents").list_value().values();
  EXPECT_GT(events.size(), 10);
  bool issue = false, stall = false, cta = false;
  for (const auto& e : events) {
    const auto& f = e.struct_value().fields();
    if (!f.count("cat")) continue;
    issue |= f.at("cat").string_value() == "issue";
    stall |= f.at("cat").string_value() == "stall";
    cta |= f.at("cat").string_value() == "cta";
  }
  EXPECT_TRUE(issue && stall && cta);
}

}  // namespace
}  // namespace warpsim::gpu
