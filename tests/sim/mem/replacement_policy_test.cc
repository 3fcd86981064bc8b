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

TEST(MemReplacement, VictimAmongRanksOnlyTheCandidates) {
  auto lru = make_replacement_policy("lru", {.sets = 1, .ways = 4});
  for (std::uint32_t w = 0; w < 4; ++w) lru->on_fill(0, w);  // age order 0, 1, 2, 3
  EXPECT_EQ(lru->victim_among(0, 0b1100), 2u);
  EXPECT_EQ(lru->victim_among(0, 0b1000), 3u);
  lru->on_hit(0, 2);
  EXPECT_EQ(lru->victim_among(0, 0b1100), 3u);
  EXPECT_EQ(lru->victim(0), 0u);  // unchanged by the queries
  auto srrip = make_replacement_policy("srrip", {.sets = 1, .ways = 4});
  for (std::uint32_t w = 0; w < 4; ++w) srrip->on_fill(0, w);
  srrip->on_hit(0, 1);
  EXPECT_EQ(srrip->victim_among(0, 0b0011), 0u);  // way 0 at 2, way 1 at 0
  EXPECT_EQ(srrip->victim_among(0, 0b0010), 1u);
  auto random = make_replacement_policy("random", {.sets = 1, .ways = 16, .seed = 3});
  std::vector<int> seen(16, 0);
  for (int i = 0; i < 400; ++i) ++seen[random->victim_among(0, 0b1010'0000'0000'0010)];
  for (std::uint32_t w = 0; w < 16; ++w) {
    if (w == 1 || w == 13 || w == 15) {
      EXPECT_GT(seen[w], 80) << w;  // about 133 each
    } else {
      EXPECT_EQ(seen[w], 0) << w;
    }
  }
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
