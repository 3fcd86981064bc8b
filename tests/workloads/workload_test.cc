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

}  // namespace
}  // namespace warpsim::workloads
