#include "sim/engine/ring_buffer.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>

namespace warpsim::engine {
namespace {

TEST(EngineRingBuffer, FifoAcrossGrowthAndWrapAround) {
  RingBuffer<std::string> ring;
  std::deque<std::string> ref;
  std::mt19937 rng(3);
  int next = 0;
  for (int step = 0; step < 5000; ++step) {
    if (rng() % 5 < 3) {
      ring.push_back(std::to_string(next));
      ref.push_back(std::to_string(next));
      ++next;
    } else if (!ref.empty()) {
      ASSERT_EQ(ring.front(), ref.front());
      ring.pop_front();
      ref.pop_front();
    }
    ASSERT_EQ(ring.size(), ref.size());
    ASSERT_EQ(ring.empty(), ref.empty());
  }
  while (!ref.empty()) {
    ASSERT_EQ(ring.front(), ref.front());
    ring.pop_front();
    ref.pop_front();
  }
  EXPECT_TRUE(ring.empty());
}

TEST(EngineRingBuffer, ReserveKeepsContents) {
  RingBuffer<int> ring;
  for (int i = 0; i < 3; ++i) ring.push_back(i);
  ring.pop_front();
  ring.push_back(3);
  ring.push_back(4);
  ring.reserve(100);
  EXPECT_EQ(ring.size(), 4u);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(ring.front(), i);
    ring.pop_front();
  }
}

}  // namespace
}  // namespace warpsim::engine
