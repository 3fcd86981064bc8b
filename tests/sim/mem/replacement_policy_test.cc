#include "sim/mem/replacement_policy.h"

#include <gtest/gtest.h>

#include <vector>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

TEST(MemReplacement, LruEvictsTheLeastRecentlyUsedWay) {
  auto lru = make_replacement_policy("lru", {.sets = 2, .ways = 4});
  for (std::uint32_t w = 0; w < 4; ++w) lru->on_fill(1, w);
  EXPECT_EQ(lru->victim(1), 0u);
  lru->on_hit(1, 0);
  EXPECT_EQ(lru->victim(1), 1u);
  lru->on_hit(1, 1);
  lru->on_hit(1, 2);
  EXPECT_EQ(lru->victim(1), 3u);
  // Set 0 is independent.
  for (std::uint32_t w = 4; w-- > 0;) lru->on_fill(0, w);
  EXPECT_EQ(lru->victim(0), 3u);
}

TEST(MemReplacement, SrripInsertsAtLongAndPromotesOnHit) {
  auto srrip = make_replacement_policy("srrip", {.sets = 1, .ways = 4});
  for (std::uint32_t w = 0; w < 4; ++w) srrip->on_fill(0, w);  // all at 2
  srrip->on_hit(0, 0);                                         // way 0 at 0
  // Ageing brings ways 1..3 to 3 first; the lowest of them goes.
  EXPECT_EQ(srrip->victim(0), 1u);
  srrip->on_fill(0, 1);  // way 1 at 2, ways 2, 3 at 3, way 0 at 1
  EXPECT_EQ(srrip->victim(0), 2u);
}

TEST(MemReplacement, RandomIsRepeatableForASeed) {
  auto a = make_replacement_policy("random", {.sets = 1, .ways = 8, .seed = 7});
  auto b = make_replacement_policy("random", {.sets = 1, .ways = 8, .seed = 7});
  auto c = make_replacement_policy("random", {.sets = 1, .ways = 8, .seed = 8});
  std::vector<std::uint32_t> va, vb, vc;
  for (int i = 0; i < 32; ++i) {
    va.push_back(a->victim(0));
    vb.push_back(b->victim(0));
    vc.push_back(c->victim(0));
  }
  EXPECT_EQ(va, vb);
  EXPECT_NE(va, vc);
  for (std::uint32_t v : va) EXPECT_LT(v, 8u);
}

TEST(MemReplacement, UnknownPolicyIsAnInputError) {
  try {
    make_replacement_policy("plru", {.sets = 1, .ways = 2}, "gpu.l2.replacement");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gpu.l2.replacement: unknown replacement policy 'plru'; expected one of: lru, "
              "random, srrip");
  }
}

}  // namespace
}  // namespace warpsim::mem
