#include "sim/mem/dram_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

using C = DramCandidate;
constexpr auto kAct = DramCommand::kActivate;
constexpr auto kPre = DramCommand::kPrecharge;
constexpr auto kRd = DramCommand::kRead;

TEST(MemDramScheduler, FrFcfsPrefersReadyRowHitsThenOldest) {
  const auto s = make_dram_scheduler("frfcfs");
  std::vector<C> c{{.queue_index = 0, .age = 1, .command = kAct, .earliest = 5},
                   {.queue_index = 1, .age = 2, .command = kRd, .earliest = 5},
                   {.queue_index = 2, .age = 3, .command = kRd, .earliest = 9}};
  EXPECT_EQ(s->pick(c, 4), DramScheduler::kNone);
  EXPECT_EQ(s->pick(c, 5), 1);
  c[1].earliest = 6;
  EXPECT_EQ(s->pick(c, 5), 0);  // no ready hit: oldest ready
  EXPECT_EQ(s->pick(c, 9), 1);
}

TEST(MemDramScheduler, FrFcfsKeepsARowOpenForQueuedHits) {
  const auto s = make_dram_scheduler("frfcfs");
  std::vector<C> c{{.queue_index = 0, .age = 1, .command = kPre, .closes_hit_row = true},
                   {.queue_index = 1, .age = 2, .command = kRd, .earliest = 7},
                   {.queue_index = 2, .age = 3, .command = kAct, .earliest = 0}};
  EXPECT_EQ(s->pick(c, 3), 2);
}

TEST(MemDramScheduler, FcfsIssuesOnlyTheOldest) {
  const auto s = make_dram_scheduler("fcfs");
  const std::vector<C> c{{.queue_index = 0, .age = 4, .command = kRd, .earliest = 0},
                         {.queue_index = 1, .age = 2, .command = kAct, .earliest = 8}};
  EXPECT_EQ(s->pick(c, 7), DramScheduler::kNone);
  EXPECT_EQ(s->pick(c, 8), 1);
  EXPECT_EQ(s->pick({}, 8), DramScheduler::kNone);
}

TEST(MemDramScheduler, FrFcfsLooksAgainWhenAHitOrAnotherCommandIsReady) {
  const auto s = make_dram_scheduler("frfcfs");
  // The PRE is ready but closes the row the read hits: the next look is when the read is ready.
  std::vector<C> c{{.queue_index = 0, .age = 1, .command = kPre, .closes_hit_row = true},
                   {.queue_index = 1, .age = 2, .command = kRd, .earliest = 7},
                   {.queue_index = 2, .age = 3, .command = kAct, .earliest = 12}};
  ASSERT_EQ(s->pick(c, 3), DramScheduler::kNone);
  EXPECT_EQ(s->next_pick(c, 3), 7u);
  c[2].earliest = 5;
  EXPECT_EQ(s->next_pick(c, 3), 5u);
  c[1].earliest = 2;  // past: at the latest the next cycle
  EXPECT_EQ(s->next_pick(c, 3), 4u);
  // Nothing but a hit-closing PRE: only a change of the candidates can let it issue.
  EXPECT_EQ(s->next_pick(std::vector<C>{c[0]}, 3), engine::kSleep);
}

TEST(MemDramScheduler, FcfsLooksAgainWhenTheOldestIsReady) {
  const auto s = make_dram_scheduler("fcfs");
  const std::vector<C> c{{.queue_index = 0, .age = 4, .command = kRd, .earliest = 0},
                         {.queue_index = 1, .age = 2, .command = kAct, .earliest = 8}};
  EXPECT_EQ(s->next_pick(c, 3), 8u);
  EXPECT_EQ(s->next_pick({}, 3), engine::kSleep);
}

TEST(MemDramScheduler, UnknownSchedulerNamesTheField) {
  try {
    make_dram_scheduler("bliss", "gpu.dram.scheduler");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gpu.dram.scheduler: unknown DRAM scheduler 'bliss'; expected one of: fcfs, frfcfs");
  }
}

}  // namespace
}  // namespace warpsim::mem
