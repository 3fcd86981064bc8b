#include "workloads/workload.h"

#include <gtest/gtest.h>

#include "arch/error.h"
#include "traces/cta_trace.h"
#include "traces/kernel_info.h"

namespace warpsim::workloads {
namespace {

TEST(WorkloadsRegistry, EveryModelBuildsItsFirstCta) {
  EXPECT_GE(all_workloads().size(), 17u);
  for (const auto& w : all_workloads()) {
    auto source = w->make_source(Params::parse(w->params(), {}, std::string(w->name())));
    traces::KernelInfo info;
    ASSERT_TRUE(source->next_kernel(info)) << w->name();
    traces::CtaTrace cta;
    ASSERT_TRUE(source->next_cta(cta)) << w->name();
    EXPECT_EQ(cta.warps.size(), info.warps_per_cta());
    EXPECT_GT(cta.instruction_count(), 0u) << w->name();
    EXPECT_FALSE(source->next_kernel(info));
  }
}

TEST(WorkloadsRegistry, StreamedWarpsComeInPiecesThatMakeTheWholeWarp) {
  constexpr uint32_t kPiece = 7;
  for (const auto& w : all_workloads()) {
    const Params params = Params::parse(w->params(), {}, std::string(w->name()));
    auto whole = w->make_source(params);
    auto pieces = w->make_source(params);
    pieces->stream_warps(kPiece);
    traces::KernelInfo info;
    ASSERT_TRUE(whole->next_kernel(info));
    ASSERT_TRUE(pieces->next_kernel(info));
    traces::CtaTrace expected, cta;
    ASSERT_TRUE(whole->next_cta(expected));
    ASSERT_TRUE(pieces->next_cta(cta)) << w->name();
    ASSERT_EQ(cta.warps.size(), expected.warps.size());
    for (size_t i = 0; i < cta.warps.size(); ++i) {
      traces::WarpTrace& warp = cta.warps[i];
      EXPECT_LE(warp.instructions.size(), kPiece) << w->name();
      EXPECT_EQ(warp.more != nullptr, expected.warps[i].instructions.size() > kPiece) << w->name();
      warp.fill_all();
      EXPECT_EQ(warp, expected.warps[i]) << w->name() << " warp " << i;
    }
  }
}

TEST(WorkloadsRegistry, UnknownNameListsTheKnownOnes) {
  try {
    find_workload("sgemm");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("saxpy"), std::string::npos);
  }
}

TEST(WorkloadsParams, ParsesAndRejectsBadValues) {
  const std::vector<ParamSpec> specs = {{"n", 10, "elements"}, {"stride", 1, "stride"}};
  EXPECT_EQ(Params::parse(specs, {"n=42"}, "m").get("n"), 42);
  EXPECT_EQ(Params::parse(specs, {"n=42"}, "m").get("stride"), 1);
  EXPECT_EQ(Params::parse(specs, {}, "m").to_string(), "n=10;stride=1");
  EXPECT_THROW(Params::parse(specs, {"m=1"}, "m"), InputError);
  EXPECT_THROW(Params::parse(specs, {"n"}, "m"), InputError);
  EXPECT_THROW(Params::parse(specs, {"n=1x"}, "m"), InputError);
  EXPECT_THROW(Params::parse(specs, {"n=0"}, "m"), InputError);
  EXPECT_THROW(Params::parse(specs, {"=3"}, "m"), InputError);
}

TEST(WorkloadsModels, ModelSpecificParameterChecks) {
  const Workload& t = find_workload("transpose_tile32");
  EXPECT_THROW(t.make_source(Params::parse(t.params(), {"n=100"}, "t")), InputError);
  const Workload& o = find_workload("occupancy");
  EXPECT_THROW(o.make_source(Params::parse(o.params(), {"min_ctas=3"}, "o")), InputError);
}

// The first CTA's global-memory lane addresses of `name` with `params`, in trace order (the pools
// also hold constant-bank offsets, which no placement moves).
std::vector<uint64_t> first_cta_addresses(const std::string& name,
                                          const std::vector<std::string>& params) {
  const Workload& w = find_workload(name);
  auto source = w.make_source(Params::parse(w.params(), params, name));
  traces::KernelInfo info;
  traces::CtaTrace cta;
  EXPECT_TRUE(source->next_kernel(info));
  EXPECT_TRUE(source->next_cta(cta));
  std::vector<uint64_t> out;
  for (const auto& warp : cta.warps) {
    for (uint64_t a : warp.addresses) {
      if (a >= (uint64_t{1} << 40)) out.push_back(a);
    }
  }
  return out;
}

TEST(WorkloadsModels, PadMovesEveryBufferAsAnotherPlacementWould) {
  for (const auto& w : all_workloads()) {
    const auto params = w->params();
    EXPECT_EQ(params.back().name, "pad_mb") << w->name();
    EXPECT_EQ(params.back().default_value, 0) << w->name();
  }
  const auto plain = first_cta_addresses("copy", {"n=1048576"});
  const auto padded = first_cta_addresses("copy", {"n=1048576", "pad_mb=2"});
  // An odd pad rounds up to the allocator's 2 MiB.
  const auto odd = first_cta_addresses("copy", {"n=1048576", "pad_mb=1"});
  ASSERT_FALSE(plain.empty());
  ASSERT_EQ(plain.size(), padded.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(padded[i] - plain[i], uint64_t{2} << 20);
    EXPECT_EQ(odd[i], padded[i]);
  }
  const Workload& c = find_workload("copy");
  EXPECT_THROW(c.make_source(Params::parse(c.params(), {"pad_mb=2000000"}, "copy")), InputError);
  EXPECT_THROW(Params::parse(c.params(), {"pad_mb=-2"}, "copy"), InputError);
}

}  // namespace
}  // namespace warpsim::workloads
