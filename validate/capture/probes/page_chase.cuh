// What the page probes share (page_sets.cu, alloc_churn.cu): one thread's chase through one
// random cycle over every 128-byte line of a set of 2 MB chunks, two warm passes and two timed hop
// by hop into a histogram of 25-cycle bins, the sweep that clears the L2 between chases, and the
// row each chase prints.
#pragma once

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

namespace page_chase {

constexpr size_t kChunkBytes = size_t{2} << 20;
constexpr size_t kLineBytes = 128;
constexpr size_t kLineWords = kLineBytes / sizeof(unsigned);
constexpr size_t kLinesPerChunk = kChunkBytes / kLineBytes;
constexpr size_t kPoolChunks = 1024;  // 2 GiB
constexpr int kBins = 80;
constexpr int kBinCycles = 25;

__global__ void probe_chase(const unsigned* __restrict__ pool, unsigned start, long long warm,
                            long long timed, unsigned long long* out) {
  __shared__ unsigned hist[kBins];
  __shared__ unsigned keep;
  for (int b = 0; b < kBins; ++b) hist[b] = 0;
  unsigned idx = start;
  for (long long h = 0; h < warm; ++h) idx = pool[size_t{idx} * kLineWords];
  unsigned long long total = 0;
  for (long long h = 0; h < timed; ++h) {
    const long long t0 = clock64();
    idx = pool[size_t{idx} * kLineWords];
    keep = idx;  // the store waits for the load, and the clock read is issued after it
    const long long dt = clock64() - t0;
    total += static_cast<unsigned long long>(dt);
    ++hist[min(static_cast<int>(dt / kBinCycles), kBins - 1)];
  }
  out[0] = total;
  out[1] = keep;
  for (int b = 0; b < kBins; ++b) out[2 + b] = hist[b];
}

// Reads a buffer larger than the L2 so that the next chase starts from lines of no footprint.
__global__ void sweep(const unsigned* __restrict__ buf, size_t words, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < words;
       i += size_t{gridDim.x} * blockDim.x)
    acc += buf[i];
  if (acc == 0x9e3779b9u) *sink = acc;
}



// One Sattolo cycle through every line of the chunks, written into the pool (line indices).
inline unsigned write_chain(unsigned* pool, const std::vector<size_t>& chunks,
                            std::mt19937_64& rng) {
  std::vector<unsigned> lines;
  lines.reserve(chunks.size() * kLinesPerChunk);
  for (size_t c : chunks)
    for (size_t l = 0; l < kLinesPerChunk; ++l)
      lines.push_back(static_cast<unsigned>(c * kLinesPerChunk + l));
  for (size_t k = lines.size() - 1; k > 0; --k) {
    std::uniform_int_distribution<size_t> pick(0, k - 1);
    std::swap(lines[k], lines[pick(rng)]);
  }
  std::vector<unsigned> next(lines.size());
  for (size_t k = 0; k < lines.size(); ++k) next[k] = lines[(k + 1) % lines.size()];
  // next[k] follows lines[k]; group by chunk to copy one chunk image at a time.
  std::vector<unsigned> image(kChunkBytes / sizeof(unsigned), 0);
  std::vector<size_t> order(lines.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lines[a] < lines[b]; });
  std::vector<size_t> ascending(chunks);  // the order `order` meets them in
  std::sort(ascending.begin(), ascending.end());
  size_t at = 0;
  for (size_t c : ascending) {
    std::fill(image.begin(), image.end(), 0u);
    for (size_t l = 0; l < kLinesPerChunk; ++l, ++at) {
      const size_t k = order[at];
      image[(lines[k] - c * kLinesPerChunk) * kLineWords] = next[k];
    }
    cudaMemcpy(pool + c * (kChunkBytes / sizeof(unsigned)), image.data(), kChunkBytes,
               cudaMemcpyHostToDevice);
  }
  return lines[0];
}


// The device buffers every chase uses besides its own: the sweep's buffer, the chase's results and
// the sink that keeps both kernels' loads.
struct Scratch {
  static constexpr size_t kSweepBytes = size_t{512} << 20;
  unsigned* sweeper = nullptr;
  unsigned long long* out = nullptr;
  unsigned* sink = nullptr;

  // False if CUDA failed.
  bool allocate() {
    if (cudaMalloc(&sweeper, kSweepBytes) != cudaSuccess ||
        cudaMalloc(&out, (2 + kBins) * sizeof(unsigned long long)) != cudaSuccess ||
        cudaMalloc(&sink, sizeof(unsigned)) != cudaSuccess)
      return false;
    return cudaMemset(sweeper, 0, kSweepBytes) == cudaSuccess;
  }
};

// Writes the chain over `chunks` of `pool`, clears the L2, chases, and prints one row: gpu,
// l2_bytes, selection, param, footprint MB, chunks, mean cycles per timed hop, timed hops,
// histogram (bin:count pairs). False if CUDA failed.
inline bool chase_and_print(const cudaDeviceProp& prop, unsigned* pool,
                            const std::vector<size_t>& chunks, const char* selection, int param,
                            const Scratch& scratch) {
  std::mt19937_64 rng(42);
  const unsigned start = write_chain(pool, chunks, rng);
  const long long lines = static_cast<long long>(chunks.size() * kLinesPerChunk);
  sweep<<<264, 512>>>(scratch.sweeper, Scratch::kSweepBytes / sizeof(unsigned), scratch.sink);
  probe_chase<<<1, 1>>>(pool, start, 2 * lines, 2 * lines, scratch.out);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s %d: %s\n", selection, param, cudaGetErrorString(e));
    return false;
  }
  unsigned long long host[2 + kBins];
  cudaMemcpy(host, scratch.out, sizeof(host), cudaMemcpyDeviceToHost);
  std::printf("%s\t%d\t%s\t%d\t%.0f\t%zu\t%.1f\t%lld\t", prop.name, prop.l2CacheSize, selection,
              param, static_cast<double>(chunks.size() * kChunkBytes) / (1 << 20), chunks.size(),
              static_cast<double>(host[0]) / (2 * lines), 2 * lines);
  for (int b = 0; b < kBins; ++b)
    if (host[2 + b]) std::printf("%d:%llu,", b, host[2 + b]);
  std::printf("\n");
  std::fflush(stdout);
  return true;
}

}  // namespace page_chase
