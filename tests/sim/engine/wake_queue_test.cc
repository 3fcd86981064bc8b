#include "sim/engine/wake_queue.h"

#include <gtest/gtest.h>

#include <vector>

namespace warpsim::engine {
namespace {

TEST(EngineWakeQueue, PopsByTimeThenIdKeepingDuplicates) {
  WakeQueue q;
  q.push({700, 2, 7});
  q.push({300, 5, 3});
  q.push({300, 1, 3});
  q.push({700, 2, 7});
  q.push({100, 9, 1});
  std::vector<std::pair<Time, ComponentId>> order;
  while (!q.empty()) {
    const Wake w = q.pop();
    order.emplace_back(w.time, w.id);
  }
  EXPECT_EQ(order, (std::vector<std::pair<Time, ComponentId>>{
                       {100, 9}, {300, 1}, {300, 5}, {700, 2}, {700, 2}}));
}

TEST(EngineWakeQueue, RemapIdsRestoresOrder) {
  WakeQueue q;
  q.push({50, 0, 1});
  q.push({50, 1, 1});
  q.push({50, 2, 1});
  const std::vector<ComponentId> map = {2, 0, 1};
  q.remap_ids(map);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.pop().id, 0u);
  EXPECT_EQ(q.pop().id, 1u);
  EXPECT_EQ(q.pop().id, 2u);
}

}  // namespace
}  // namespace warpsim::engine
