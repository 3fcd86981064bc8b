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

TEST(MemReplacement, RandomLruDrawsOnlyFromTheOldestWays) {
  // 8 ways filled in the order 5, 3, 7, 1, 0, 2, 4, 6: the 3 least recently used are 5, 3, 7.
  auto policy = make_replacement_policy("random_lru",
                                        {.sets = 2, .ways = 8, .seed = 3, .candidates = 3});
  const std::uint32_t order[] = {5, 3, 7, 1, 0, 2, 4, 6};
  for (std::uint32_t w : order) policy->on_fill(1, w);
  int seen[8] = {};
  for (int i = 0; i < 3000; ++i) ++seen[policy->victim(1)];
  for (std::uint32_t w : {1u, 0u, 2u, 4u, 6u}) EXPECT_EQ(seen[w], 0) << "way " << w;
  for (std::uint32_t w : {5u, 3u, 7u}) EXPECT_NEAR(seen[w], 1000, 150) << "way " << w;
  // A hit makes way 5 the most recently used: the candidates become 3, 7, 1.
  policy->on_hit(1, 5);
  for (int i = 0; i < 300; ++i) {
    const std::uint32_t v = policy->victim(1);
    EXPECT_TRUE(v == 3 || v == 7 || v == 1) << v;
  }
  // One candidate is LRU; the dirty-line choice (victim_among) is LRU among the mask.
  auto one = make_replacement_policy("random_lru", {.sets = 1, .ways = 4, .candidates = 1});
  for (std::uint32_t w : {2u, 0u, 3u, 1u}) one->on_fill(0, w);
  EXPECT_EQ(one->victim(0), 2u);
  EXPECT_EQ(policy->victim_among(1, (1u << 6) | (1u << 7) | (1u << 5)), 7u);
}

TEST(MemReplacement, RandomLruDefaultsToHalfTheWaysAndRepeatsForASeed) {
  auto a = make_replacement_policy("random_lru", {.sets = 1, .ways = 16, .seed = 9});
  auto b = make_replacement_policy("random_lru", {.sets = 1, .ways = 16, .seed = 9});
  for (std::uint32_t w = 0; w < 16; ++w) {
    a->on_fill(0, w);
    b->on_fill(0, w);
  }
  std::vector<std::uint32_t> va, vb;
  for (int i = 0; i < 400; ++i) {
    va.push_back(a->victim(0));
    vb.push_back(b->victim(0));
  }
  EXPECT_EQ(va, vb);
  std::vector<int> seen(16, 0);
  for (std::uint32_t v : va) ++seen[v];
  for (std::uint32_t w = 0; w < 8; ++w) EXPECT_GT(seen[w], 0) << "way " << w;
  for (std::uint32_t w = 8; w < 16; ++w) EXPECT_EQ(seen[w], 0) << "way " << w;
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

TEST(MemReplacement, TreePlruFollowsTheTreeBits) {
  auto plru = make_replacement_policy("tree_plru", {.sets = 2, .ways = 4});
  // Filling 0, 1, 2, 3 in turn points the root at the left half (3 was last used) and the left
  // node away from way 1: way 0 goes first, as under LRU.
  for (std::uint32_t w = 0; w < 4; ++w) plru->on_fill(0, w);
  EXPECT_EQ(plru->victim(0), 0u);
  plru->on_hit(0, 0);  // root now points right, the right node away from 3
  EXPECT_EQ(plru->victim(0), 2u);
  // Unlike LRU: touching 2 sends the root back left, to way 1, though 3 is older than 1.
  plru->on_hit(0, 2);
  EXPECT_EQ(plru->victim(0), 1u);
  // victim_among turns aside where the pointed half holds no candidate.
  EXPECT_EQ(plru->victim_among(0, 0b1100), 3u);
  EXPECT_EQ(plru->victim_among(0, 0b0001), 0u);
  // Set 1 is independent: its bits start at zero, pointing at way 0.
  EXPECT_EQ(plru->victim(1), 0u);
}

TEST(MemReplacement, TreePlruNeedsAPowerOfTwoWays) {
  try {
    make_replacement_policy("tree_plru", {.sets = 1, .ways = 12}, "gpu.l2.replacement");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "tree_plru: expected a power-of-two number of ways of at least 2, got 12");
  }
}

TEST(MemReplacement, UnknownPolicyIsAnInputError) {
  try {
    make_replacement_policy("plru", {.sets = 1, .ways = 2}, "gpu.l2.replacement");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gpu.l2.replacement: unknown replacement policy 'plru'; expected one of: lru, "
              "random, random_lru, srrip, tree_plru");
  }
}

}  // namespace
}  // namespace warpsim::mem
