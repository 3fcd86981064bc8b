// Whether the L2 fetches more than the 64 bytes a miss needs when a stream walks a line sector by
// sector. The gemm_mma_bf16 twin reads each 128-byte line of A one 32-byte sector a step of K; the
// model fetches 64 bytes a miss (l2.fetch_granularity_bytes, from the 1 GB chase's 66 bytes a
// missing hop), so every other step of A waits on DRAM again (validate/HISTORY.md, twenty-eighth
// round). After 512 MB of other lines have emptied the L2, one thread reads sectors 0, 1, 2, 3 of
// each of 64 lines in turn (ld.global.cg, the L1 left out), timing each load to its use. A
// sector that comes in about an L2 hit's time was fetched with an earlier one; one that takes a
// DRAM round trip was not. Two layouts: the lines 4 KB apart, and consecutive.
//
// Output (stdout, TSV): layout line sector cycles.
//
// Build (from this directory):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o sector_walk sector_walk.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kLines = 64;

__global__ void walk(const float* buf, int line_words, long long* out) {
  __shared__ volatile float word;
  for (int line = 0; line < kLines; ++line) {
    for (int sector = 0; sector < 4; ++sector) {
      const long long t0 = stamp();
      word = load_cg(buf + static_cast<size_t>(line) * line_words + sector * 8);
      out[line * 4 + sector] = stamp() - t0;
    }
  }
}

__global__ void flush_l2(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

}  // namespace

int main() {
  const size_t flush_bytes = size_t{512} << 20;
  float4* flush = nullptr;
  float *buf = nullptr, *sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&flush, flush_bytes));
  TWIN_CHECK(cudaMemset(flush, 0, flush_bytes));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&buf, size_t{kLines} * 4096));
  TWIN_CHECK(cudaMemset(buf, 0, size_t{kLines} * 4096));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kLines * 4));
  long long host[kLines * 4];
  std::printf("layout\tline\tsector\tcycles\n");
  for (int repeat = 0; repeat < 3; ++repeat) {
    for (int line_words : {1024, 32}) {
      flush_l2<<<132 * 8, 256>>>(flush, flush_bytes / 16, sink);
      walk<<<1, 1>>>(buf, line_words, out);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
      if (repeat == 0) continue;  // the first pass loads the code
      for (int i = 0; i < kLines * 4; ++i) {
        std::printf("%s\t%d\t%d\t%lld\n", line_words == 32 ? "consecutive" : "4KB_apart", i / 4,
                    i % 4, host[i]);
      }
    }
  }
  return 0;
}
