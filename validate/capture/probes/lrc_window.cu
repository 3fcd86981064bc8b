// How long the L2 request coalescer (LRC) lets a later read of a line join an earlier one. One CTA
// of two warps on one SM: both read the same 512 lines (128 B each, ld.global.cg, so the L1
// neither keeps nor merges them) in the same order, 8 loads in flight per warp; warp 1 starts
// `delay` cycles after warp 0 (clock64 of the same SM). Under ncu's cache control the lines start
// in DRAM (`miss`), or a first pass by warp 0 brings them into the L2 before the timed reads
// (`hit`). ncu counts per launch the read sectors the LRC coalesced (lrc__request_sectors_op_read_
// coalescing_achieved_type_hardware) and those the slices looked up (lts__t_sectors_srcunit_tex_
// op_read); each warp also reports its cycles from the start to its last load's result.
//
// Output (stdout, TSV): case delay warp cycles. Run it under ncu (lrc_window.sh) for the counts.
//
// Build: nvcc -O3 -arch=sm_90 -o lrc_window lrc_window.cu
#include <cstdio>

#include "clock_probe.cuh"
#include "lrc_reads.cuh"

namespace {

__global__ void probe(const float* buf, int delay, int warm, float* sink, long long* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  float sum = 0;
  if (warm && warp == 0) sum += read_lines(buf, lane);
  if (sum == 1234.5f) *sink = sum;  // the warm-up's results are in
  __syncthreads();
  const long long start = stamp();
  if (warp == 1) {
    while (stamp() - start < delay) {
    }
  }
  sum += read_lines(buf, lane);
  const long long end = stamp();
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) out[warp] = end - start;
}

}  // namespace

int main() {
  float* buf = nullptr;
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, sizeof(float) * kLines * 32));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * 2));
  TWIN_CHECK(cudaMemset(buf, 0, sizeof(float) * kLines * 32));
  long long host[2];
  std::printf("case\tdelay\twarp\tcycles\n");
  for (int warm = 0; warm < 2; ++warm) {
    for (int delay : {0, 25, 50, 100, 200, 400, 800, 1600, 3200, 100000}) {
      probe<<<1, 64>>>(buf, delay, warm, sink, out);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
      for (int w = 0; w < 2; ++w)
        std::printf("%s\t%d\t%d\t%lld\n", warm ? "hit" : "miss", delay, w, host[w]);
    }
  }
  TWIN_CHECK(cudaFree(buf));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
