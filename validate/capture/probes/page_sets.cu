// Probe of whether the L2 fills its sets the same way whatever 2 MB pages a footprint is made of.
// One thread chases one random cycle (Sattolo) through every 128-byte line of a footprint built
// from whole 2 MB chunks of one large allocation: chunks that follow each other, every k-th
// chunk, or chunks drawn at random. Two passes warm the L2, then two more are timed hop by hop
// (clock64 around each dependent load) into a histogram of 25-cycle bins. At a footprint below
// the L2's capacity a chase whose lines spread evenly over a slice's sets hits on every timed hop
// whatever chunks it is made of; if a page reaches only part of a slice's sets, some choices of
// chunks crowd those sets and miss. Footprints are fractions of half the L2 (one SM's near
// partition holds its own half of the lines and copies of the other half).
//   nvcc -O3 -std=c++17 -arch=native -o page_sets page_sets.cu && ./page_sets > page_sets.tsv
// Columns: gpu, l2_bytes, selection, seed or stride, footprint MB, chunks, mean cycles per timed
// hop, timed hops, then the histogram as bin:count pairs (bin b holds 25b to 25b + 24 cycles;
// the last bin everything from 25 x 79 up).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "page_chase.cuh"

namespace {

using namespace page_chase;

struct Selection {
  std::string name;
  int param;
  std::vector<size_t> chunks;
};

}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const size_t l2 = static_cast<size_t>(prop.l2CacheSize);
  unsigned* pool = nullptr;
  Scratch scratch;
  if (cudaMalloc(&pool, kPoolChunks * kChunkBytes) != cudaSuccess || !scratch.allocate()) return 1;
  std::printf("gpu\tl2_bytes\tselection\tparam\tmb\tchunks\tmean_cycles\ttimed_hops\thistogram\n");
  const double fractions[] = {0.60, 0.75, 0.85, 0.95};
  for (double f : fractions) {
    const size_t n = std::max<size_t>(1, static_cast<size_t>(f * (l2 / 2) / kChunkBytes + 0.5));
    std::vector<Selection> sels;
    for (size_t off : {size_t{0}, size_t{101}, size_t{517}}) {
      Selection s{"contiguous", static_cast<int>(off), {}};
      for (size_t i = 0; i < n; ++i) s.chunks.push_back(off + i);
      sels.push_back(s);
    }
    for (int k : {2, 3, 4, 5, 6, 8, 12, 15, 16, 24, 30, 32, 48, 60, 64}) {
      if (static_cast<size_t>(k) * (n - 1) >= kPoolChunks) continue;
      Selection s{"stride", k, {}};
      for (size_t i = 0; i < n; ++i) s.chunks.push_back(i * k);
      sels.push_back(s);
    }
    for (int seed = 1; seed <= 6; ++seed) {
      Selection s{"random", seed, {}};
      std::vector<size_t> all(kPoolChunks);
      for (size_t i = 0; i < kPoolChunks; ++i) all[i] = i;
      std::mt19937_64 rng(1000 + seed);
      std::shuffle(all.begin(), all.end(), rng);
      s.chunks.assign(all.begin(), all.begin() + n);
      std::sort(s.chunks.begin(), s.chunks.end());
      sels.push_back(s);
    }
    for (const Selection& s : sels)
      if (!chase_and_print(prop, pool, s.chunks, s.name.c_str(), s.param, scratch))
        return 1;
  }
  return 0;
}
