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

namespace {

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

struct Selection {
  std::string name;
  int param;
  std::vector<size_t> chunks;
};

// One Sattolo cycle through every line of the chunks, written into the pool (line indices).
unsigned write_chain(unsigned* pool, const std::vector<size_t>& chunks, std::mt19937_64& rng) {
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
  size_t at = 0;
  for (size_t c : chunks) {
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

}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const size_t l2 = static_cast<size_t>(prop.l2CacheSize);
  unsigned* pool = nullptr;
  unsigned* sweeper = nullptr;
  unsigned long long* out = nullptr;
  unsigned* sink = nullptr;
  const size_t sweep_bytes = size_t{512} << 20;
  if (cudaMalloc(&pool, kPoolChunks * kChunkBytes) != cudaSuccess ||
      cudaMalloc(&sweeper, sweep_bytes) != cudaSuccess ||
      cudaMalloc(&out, (2 + kBins) * sizeof(unsigned long long)) != cudaSuccess ||
      cudaMalloc(&sink, sizeof(unsigned)) != cudaSuccess)
    return 1;
  cudaMemset(sweeper, 0, sweep_bytes);
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
    for (const Selection& s : sels) {
      std::mt19937_64 rng(42);
      const unsigned start = write_chain(pool, s.chunks, rng);
      const long long lines = static_cast<long long>(n * kLinesPerChunk);
      sweep<<<264, 512>>>(sweeper, sweep_bytes / sizeof(unsigned), sink);
      probe_chase<<<1, 1>>>(pool, start, 2 * lines, 2 * lines, out);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
      unsigned long long host[2 + kBins];
      cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
      std::printf("%s\t%zu\t%s\t%d\t%.0f\t%zu\t%.1f\t%lld\t", prop.name, l2, s.name.c_str(),
                  s.param, static_cast<double>(n * kChunkBytes) / (1 << 20), n,
                  static_cast<double>(host[0]) / (2 * lines), 2 * lines);
      for (int b = 0; b < kBins; ++b)
        if (host[2 + b]) std::printf("%d:%llu,", b, host[2 + b]);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  return 0;
}
