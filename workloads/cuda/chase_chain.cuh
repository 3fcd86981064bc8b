// The pointer chase's chain, shared by the latency twin (latency.cu) and the chase probes
// (validate/capture/probes/chase_passes.cu): one uniformly random single cycle (Sattolo's
// algorithm, seed 42) through every 128-byte node of a footprint, as the host image of the
// buffer: node k's first word holds the word index of its successor's first word.
#pragma once

#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace twins {

constexpr size_t kChaseNodeBytes = 128;

inline std::vector<unsigned> chase_chain(size_t footprint_bytes) {
  const size_t stride = kChaseNodeBytes / sizeof(unsigned);
  const size_t nodes = footprint_bytes / kChaseNodeBytes;
  std::vector<unsigned> next(nodes);
  for (size_t k = 0; k < nodes; ++k) next[k] = static_cast<unsigned>(k);
  std::mt19937_64 rng(42);
  for (size_t k = nodes - 1; k > 0; --k) {
    std::uniform_int_distribution<size_t> pick(0, k - 1);
    std::swap(next[k], next[pick(rng)]);
  }
  std::vector<unsigned> host(footprint_bytes / sizeof(unsigned), 0);
  for (size_t k = 0; k < nodes; ++k) host[k * stride] = static_cast<unsigned>(next[k] * stride);
  return host;
}

}  // namespace twins
