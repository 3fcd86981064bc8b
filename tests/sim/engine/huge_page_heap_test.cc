#include "sim/engine/huge_page_heap.h"

#include <gtest/gtest.h>

namespace warpsim::engine {
namespace {

TEST(EngineHugePageHeap, AddsTheTunableOnce) {
  EXPECT_EQ(huge_heap_tunables(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_heap_tunables(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_heap_tunables("glibc.malloc.arena_max=2"),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  // Already set (by the user, or by the re-execution itself): left as it is.
  EXPECT_EQ(huge_heap_tunables("glibc.malloc.hugetlb=0"), std::nullopt);
  EXPECT_EQ(huge_heap_tunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"), std::nullopt);
}

}  // namespace
}  // namespace warpsim::engine
