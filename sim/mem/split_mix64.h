// SplitMix64: a seeded, repeatable stream of 64-bit draws for the memory system's randomized
// choices (replacement policies, the dirty-victim skip), so that a run is the same on any thread
// count.
//
// Left out: anything cryptographic; the draws only need to be well mixed and repeatable.
#pragma once

#include <cstdint>

namespace warpsim::mem {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed = 0) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

}  // namespace warpsim::mem
