#include "sim/engine/huge_page_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace warpsim::engine {
namespace {

TEST(EngineHugePageArena, HandsOutAlignedDisjointStorage) {
  HugePageArena arena(1);  // one 2 MiB page per region
  std::vector<char*> blocks;
  for (int i = 0; i < 100; ++i) {
    auto* p = static_cast<char*>(arena.allocate(1000 + static_cast<std::size_t>(i), 64));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
    std::memset(p, i, 1000);
    blocks.push_back(p);
  }
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(blocks[static_cast<std::size_t>(i)][999], static_cast<char>(i));
  }
  EXPECT_EQ(arena.reserved(), std::size_t{2} << 20);
}

TEST(EngineHugePageArena, OpensRegionsForWhatDoesNotFit) {
  HugePageArena arena(1);
  auto* big = arena.allocate_array<std::uint64_t>((std::size_t{3} << 20) / 8);  // 3 MiB
  big[0] = 1;
  big[(std::size_t{3} << 20) / 8 - 1] = 2;
  auto* small = arena.allocate_array<std::uint64_t>(16);
  small[15] = 3;
  EXPECT_EQ(arena.reserved(), std::size_t{4} << 20);  // the small one fits behind the big one
  EXPECT_EQ(big[(std::size_t{3} << 20) / 8 - 1], 2u);
}

struct Counted {
  explicit Counted(int& live) : live_(live) { ++live_; }
  ~Counted() { --live_; }
  int& live_;
};

TEST(EngineHugePageArena, MadeObjectsAreDestroyedByTheirPointer) {
  int live = 0;
  HugePageArena arena(1);
  {
    ArenaPtr<Counted> a = arena.make<Counted>(live);
    ArenaPtr<Counted> b = arena.make<Counted>(live);
    EXPECT_EQ(live, 2);
    EXPECT_NE(a.get(), b.get());
  }
  EXPECT_EQ(live, 0);
}

}  // namespace
}  // namespace warpsim::engine
