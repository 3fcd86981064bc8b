// The L2 request coalescer with its two readers on two SMs: lrc_window.cu's reads (512 lines, 8
// in flight) by one warp in each of two CTAs, which the H200 places on the two SMs of one TPC
// (one L2 partition). CTA 0 (in `hit`, after reading every line once, so they are in the L2)
// raises a flag; CTA 1 answers it and starts `delay` cycles later; CTA 0 starts when it sees the
// answer. Each CTA reports its SM, %globaltimer at its start and end, and its cycles; ncu counts
// the coalesced and looked-up read sectors per launch (lrc_pair.sh).
//
// Output (stdout, TSV): case delay cta sm start_ns end_ns cycles
//
// Build: nvcc -O3 -arch=sm_90 -o lrc_pair lrc_pair.cu
#include <cstdio>

#include "clock_probe.cuh"
#include "lrc_reads.cuh"

namespace {

__global__ void probe(const float* buf, int delay, int warm, volatile int* flags, float* sink,
                      unsigned long long* out) {
  const int lane = threadIdx.x & 31, cta = blockIdx.x;
  float sum = 0;
  if (cta == 0) {
    if (warm) sum += read_lines(buf, lane);
    if (sum == 1234.5f) *sink = sum;  // the warm-up's results are in
    __threadfence();
    if (lane == 0) flags[0] = 1;
    while (flags[1] == 0) {
    }
  } else {
    while (flags[0] == 0) {
    }
    if (lane == 0) flags[1] = 1;
    const long long wait = stamp();
    while (stamp() - wait < delay) {
    }
  }
  __syncwarp();
  const unsigned long long start_ns = global_ns();
  const long long start = stamp();
  sum += read_lines(buf, lane);
  const long long end = stamp();
  const unsigned long long end_ns = global_ns();
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    out[cta * 4 + 0] = sm_id();
    out[cta * 4 + 1] = start_ns;
    out[cta * 4 + 2] = end_ns;
    out[cta * 4 + 3] = static_cast<unsigned long long>(end - start);
  }
}

}  // namespace

int main() {
  ProbeBuffers b(2, 8);
  unsigned long long host[8];
  std::printf("case\tdelay\tcta\tsm\tstart_ns\tend_ns\tcycles\n");
  for (int warm = 0; warm < 2; ++warm) {
    for (int delay : {0, 250, 500, 1000, 2000, 4000, 8000, 100000}) {
      TWIN_CHECK(cudaMemset(b.flags, 0, sizeof(int) * 2));
      probe<<<2, 32>>>(b.buf, delay, warm, b.flags, b.sink, b.out);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(host, b.out, sizeof host, cudaMemcpyDeviceToHost));
      for (int c = 0; c < 2; ++c) {
        std::printf("%s\t%d\t%d\t%llu\t%llu\t%llu\t%llu\n", warm ? "hit" : "miss", delay, c,
                    host[c * 4], host[c * 4 + 1], host[c * 4 + 2], host[c * 4 + 3]);
      }
    }
  }
  return 0;
}
