#include "sim/engine/event_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <utility>

namespace warpsim::engine {
namespace {

TEST(EngineEventQueue, PopsByTimeThenId) {
  EventQueue q;
  q.resize(5);
  EXPECT_TRUE(q.empty());
  q.set(3, 100);
  q.set(1, 100);
  q.set(4, 50);
  q.set(0, 200);
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(q.top_time(), 50u);
  EXPECT_EQ(q.pop(), 4u);
  EXPECT_EQ(q.pop(), 1u);
  EXPECT_EQ(q.pop(), 3u);
  EXPECT_EQ(q.pop(), 0u);
  EXPECT_TRUE(q.empty());
}

TEST(EngineEventQueue, SetMovesTheSingleEntryEitherWay) {
  EventQueue q;
  q.resize(3);
  q.set(2, 500);
  q.set(1, 300);
  q.set(2, 10);
  EXPECT_EQ(q.time_of(2), 10u);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.top_id(), 2u);
  q.set(2, 900);
  EXPECT_EQ(q.top_id(), 1u);
  EXPECT_TRUE(q.contains(2));
  EXPECT_FALSE(q.contains(0));
  q.remove(1);
  q.remove(0);  // absent: no effect
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(q.pop(), 2u);
  EXPECT_FALSE(q.contains(2));
}

TEST(EngineEventQueue, MatchesOrderedSetReference) {
  constexpr ComponentId kIds = 200;
  EventQueue q;
  q.resize(kIds);
  std::set<std::pair<Time, ComponentId>> ref;
  std::map<ComponentId, Time> key;
  std::mt19937_64 rng(11);
  for (int step = 0; step < 30000; ++step) {
    const auto id = static_cast<ComponentId>(rng() % kIds);
    const int op = static_cast<int>(rng() % 4);
    if (op <= 1 || ref.empty()) {
      const Time t = rng() % 1000;
      if (auto it = key.find(id); it != key.end()) ref.erase({it->second, id});
      ref.insert({t, id});
      key[id] = t;
      q.set(id, t);
    } else if (op == 2) {
      if (auto it = key.find(id); it != key.end()) {
        ref.erase({it->second, id});
        key.erase(it);
      }
      q.remove(id);
    } else {
      const auto expected = *ref.begin();
      ASSERT_EQ(q.top_time(), expected.first);
      ASSERT_EQ(q.top_id(), expected.second);
      ASSERT_EQ(q.pop(), expected.second);
      ref.erase(ref.begin());
      key.erase(expected.second);
    }
    ASSERT_EQ(q.size(), ref.size());
    ASSERT_EQ(q.contains(id), key.count(id) == 1);
  }
}

}  // namespace
}  // namespace warpsim::engine
