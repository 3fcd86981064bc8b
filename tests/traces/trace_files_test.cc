// Round trips over the generated workloads (small parameters): IR → .wstrace → IR is exact, and
// IR → Accel-Sim → IR keeps every field Accel-Sim carries. Also format detection by extension.
#include "traces/trace_files.h"

#include <gtest/gtest.h>

#include <map>

#include "arch/error.h"
#include "tests/traces/trace_file_kernels.h"
#include "workloads/workload.h"

namespace warpsim::traces {
namespace {

using testing::accelsim_projection;
using testing::expect_same_info;
using testing::expect_same_kernel;
using testing::read_all;
using testing::temp_dir;

/// Small parameters so that every workload generates a few CTAs.
const std::map<std::string, std::vector<std::string>>& small_params() {
  static const std::map<std::string, std::vector<std::string>> params = {
      {"copy", {"n=4096"}},
      {"saxpy", {"n=4096"}},
      {"strided_copy", {"n=4096", "stride=3"}},
      {"ffma_dependent", {"ctas=2", "threads=64", "iters=4"}},
      {"ffma_independent", {"ctas=2", "threads=64", "iters=4"}},
      {"sfu", {"ctas=2", "threads=64", "iters=4"}},
      {"integer", {"ctas=2", "threads=64", "iters=4"}},
      {"divergent_2way", {"ctas=2", "iters=4"}},
      {"divergent_4way", {"ctas=2", "iters=4"}},
      {"divergent_8way", {"ctas=2", "iters=4"}},
      {"gemm_mma_bf16", {"m=128", "n=128", "k=64"}},
      {"pointer_chase", {"footprint_bytes=4096", "hops=16"}},
      {"transpose_naive", {"n=64"}},
      {"transpose_tile32", {"n=64"}},
      {"transpose_tile33", {"n=64"}},
      {"reduce_shared_tree", {"n=4096", "ctas=2"}},
      {"reduce_warp_shuffle", {"n=4096", "ctas=2"}},
      {"softmax", {"rows=4", "cols=256"}},
      {"layernorm", {"rows=4", "cols=256"}},
      {"occupancy", {"ctas=4"}},
  };
  return params;
}

std::vector<KernelTrace> generate(const workloads::Workload& w) {
  const auto it = small_params().find(std::string(w.name()));
  const std::vector<std::string> args = it != small_params().end() ? it->second
                                                                   : std::vector<std::string>{};
  const auto params = workloads::Params::parse(w.params(), args, std::string(w.name()));
  auto source = w.make_source(params);
  return read_all(*source);
}

class TracesWorkloadRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TracesWorkloadRoundTripTest, WstraceIsExactAndAccelSimKeepsItsFields) {
  const std::vector<KernelTrace> kernels = generate(workloads::find_workload(GetParam()));
  ASSERT_FALSE(kernels.empty());
  uint64_t instructions = 0;
  for (const KernelTrace& k : kernels) {
    for (const CtaTrace& c : k.ctas) instructions += c.instruction_count();
  }
  EXPECT_GT(instructions, 0u);
  const std::string dir = temp_dir(GetParam());
  {
    InMemoryKernelSource source(kernels);
    write_trace(source, dir + "/trace.wstrace", TraceFormat::kWstrace);
    const auto back_source = open_trace(dir + "/trace.wstrace");
    const std::vector<KernelTrace> back = read_all(*back_source);
    ASSERT_EQ(back.size(), kernels.size());
    for (size_t k = 0; k < kernels.size(); ++k) {
      expect_same_info(kernels[k].info, back[k].info);
      ASSERT_EQ(back[k].ctas.size(), kernels[k].ctas.size());
      for (size_t c = 0; c < back[k].ctas.size(); ++c) {
        ASSERT_EQ(back[k].ctas[c], kernels[k].ctas[c]) << "kernel " << k << " CTA " << c;
      }
    }
  }
  {
    InMemoryKernelSource source(kernels);
    write_trace(source, dir + "/accelsim", TraceFormat::kAccelSim);
    const auto back_source = open_trace(dir + "/accelsim");
    const std::vector<KernelTrace> back = read_all(*back_source);
    ASSERT_EQ(back.size(), kernels.size());
    for (size_t k = 0; k < kernels.size(); ++k) {
      expect_same_kernel(accelsim_projection(kernels[k]), back[k]);
    }
  }
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const auto& w : workloads::all_workloads()) names.emplace_back(w->name());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Workloads, TracesWorkloadRoundTripTest,
                         ::testing::ValuesIn(workload_names()),
                         [](const auto& info) { return info.param; });

TEST(TracesTraceFilesTest, FormatsByExtension) {
  EXPECT_EQ(trace_format_of("a/b.wstrace"), TraceFormat::kWstrace);
  EXPECT_EQ(trace_format_of("a/kernelslist.g"), TraceFormat::kAccelSim);
  EXPECT_EQ(trace_format_of("kernel-1.traceg"), TraceFormat::kAccelSim);
  EXPECT_EQ(trace_format_of("kernel-1.traceg.xz"), TraceFormat::kAccelSimXz);
  EXPECT_THROW(trace_format_of("trace.zip"), InputError);
  EXPECT_EQ(parse_trace_format("accelsim-xz"), TraceFormat::kAccelSimXz);
  EXPECT_FALSE(parse_trace_format("zip").has_value());
}

}  // namespace
}  // namespace warpsim::traces
