// Probe of whether one allocation's 2 MB pages fill the L2's sets as evenly after the process has
// allocated and freed many buffers as in a fresh process (page_sets.cu: chunks in a row of one
// allocation fill them evenly, other chunks do not). For footprints of 60, 75 and 85 % of half
// the L2, one thread chases every line of one cudaMalloc'd buffer (page_chase.cuh): first in the
// fresh process ("fresh"), then after each of four churns ("churn", param = seed): buffers of
// 0.5-48 MB allocated up to 8 GiB, a random half of them freed, then the chase's buffer
// allocated among the holes; the churn's buffers are freed after each chase. The same again with
// the footprint split over separate allocations, as a kernel's buffers are: three of a third each
// ("split3") or one per 2 MB chunk ("split1"), fresh (param 0) and after the churns (param = seed).
//   nvcc -O3 -std=c++17 -arch=native -o alloc_churn alloc_churn.cu && ./alloc_churn > alloc_churn.tsv
// Columns as page_sets.cu's.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "page_chase.cuh"

using namespace page_chase;

namespace {

// Allocates buffers of drawn sizes up to `total` bytes and frees a drawn half; returns the rest.
std::vector<void*> churn(std::mt19937_64& rng, size_t total) {
  const size_t sizes[] = {size_t{1} << 19, size_t{3} << 20, size_t{2} << 20, size_t{6} << 20,
                          size_t{16} << 20, size_t{20} << 20, size_t{48} << 20, size_t{5} << 19};
  std::vector<void*> bufs;
  size_t used = 0;
  while (used < total) {
    const size_t b = sizes[rng() % std::size(sizes)];
    void* p = nullptr;
    if (cudaMalloc(&p, b) != cudaSuccess) break;
    bufs.push_back(p);
    used += b;
  }
  std::shuffle(bufs.begin(), bufs.end(), rng);
  const size_t half = bufs.size() / 2;
  for (size_t i = 0; i < half; ++i) cudaFree(bufs[i]);
  return std::vector<void*>(bufs.begin() + half, bufs.end());
}

// Chases n chunks held by `parts` separate allocations (sizes as even as whole chunks allow),
// the chain's line indices counted from the lowest of them.
bool chase_split(const cudaDeviceProp& prop, size_t n, size_t parts, const char* name, int seed,
                 const Scratch& scratch) {
  std::vector<unsigned*> bufs;
  std::vector<size_t> sizes;
  for (size_t p = 0; p < parts; ++p) {
    const size_t c = n * (p + 1) / parts - n * p / parts;
    unsigned* b = nullptr;
    const cudaError_t e = cudaMalloc(&b, c * kChunkBytes);
    if (e != cudaSuccess) {
      std::fprintf(stderr, "%s %d: cudaMalloc of %zu chunks: %s\n", name, seed, c,
                   cudaGetErrorString(e));
      return false;
    }
    bufs.push_back(b);
    sizes.push_back(c);
  }
  unsigned* base = *std::min_element(bufs.begin(), bufs.end());
  std::vector<size_t> chunks;
  bool aligned = true;
  for (size_t p = 0; p < parts; ++p) {
    const size_t offset = reinterpret_cast<char*>(bufs[p]) - reinterpret_cast<char*>(base);
    aligned = aligned && offset % kChunkBytes == 0;
    for (size_t i = 0; i < sizes[p]; ++i) chunks.push_back(offset / kChunkBytes + i);
  }
  // Line indices must fit the chain's 32 bits.
  const bool fits =
      *std::max_element(chunks.begin(), chunks.end()) < (size_t{1} << 32) / kLinesPerChunk;
  const bool ok = !aligned || !fits ||
                  chase_and_print(prop, base, chunks, name, seed, scratch);
  if (!aligned || !fits) std::printf("# %s %d: buffers not 2 MB apart or too far apart\n", name, seed);
  for (unsigned* b : bufs) cudaFree(b);
  return ok;
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const size_t l2 = static_cast<size_t>(prop.l2CacheSize);
  Scratch scratch;
  if (!scratch.allocate()) return 1;
  std::printf("gpu\tl2_bytes\tselection\tparam\tmb\tchunks\tmean_cycles\ttimed_hops\thistogram\n");
  const double fractions[] = {0.60, 0.75, 0.85};
  std::vector<size_t> counts;
  for (double f : fractions)
    counts.push_back(std::max<size_t>(1, static_cast<size_t>(f * (l2 / 2) / kChunkBytes + 0.5)));
  for (size_t n : counts) {  // fresh: nothing freed before
    std::vector<size_t> chunks(n);
    for (size_t i = 0; i < n; ++i) chunks[i] = i;
    unsigned* buf = nullptr;
    if (cudaMalloc(&buf, n * kChunkBytes) != cudaSuccess) return 1;
    if (!chase_and_print(prop, buf, chunks, "fresh", 0, scratch)) return 1;
    cudaFree(buf);
  }
  for (int seed = 1; seed <= 4; ++seed) {
    for (size_t n : counts) {
      std::mt19937_64 rng(seed * 7919 + n);
      std::vector<void*> kept = churn(rng, size_t{8} << 30);
      std::vector<size_t> chunks(n);
      for (size_t i = 0; i < n; ++i) chunks[i] = i;
      unsigned* buf = nullptr;
      if (cudaMalloc(&buf, n * kChunkBytes) != cudaSuccess) return 1;
      if (!chase_and_print(prop, buf, chunks, "churn", seed, scratch))
        return 1;
      cudaFree(buf);
      for (void* p : kept) cudaFree(p);
    }
  }
  for (int parts : {3, 0}) {
    for (int seed = 0; seed <= 4; ++seed) {
      for (size_t n : counts) {
        std::mt19937_64 rng(seed * 104729 + n);
        std::vector<void*> kept;
        if (seed > 0) kept = churn(rng, size_t{8} << 30);
        if (!chase_split(prop, n, parts == 0 ? n : parts, parts == 0 ? "split1" : "split3", seed,
                         scratch))
          return 1;
        for (void* p : kept) cudaFree(p);
      }
    }
  }
  return 0;
}
