// Which reads of lines that hit in the L2 join one another at the request coalescer: lrc_pair.cu's
// two readers (512 lines, 8 in flight, one warp in each of two CTAs) after one of them (`warmer`)
// has read every line once, so that all of them hit. The two CTAs raise a flag each and start when
// they see the other's; then CTA `who` waits `delay` cycles more. Each configuration runs twice;
// ncu counts the coalesced and looked-up read sectors per launch (lrc_hits.sh), in launch order.
//
// Output (stdout, TSV): warmer who delay repeat cta sm start_ns end_ns
//
// Build: nvcc -O3 -arch=sm_90 -o lrc_hits lrc_hits.cu
#include <cstdio>

#include "clock_probe.cuh"
#include "lrc_reads.cuh"

namespace {

__global__ void probe(const float* buf, int delay, int who, int warmer, volatile int* flags,
                      float* sink, unsigned long long* out) {
  const int lane = threadIdx.x & 31, cta = blockIdx.x;
  float sum = 0;
  if (cta == warmer) sum += read_lines(buf, lane);
  if (sum == 1234.5f) *sink = sum;  // the warm-up's results are in
  __threadfence();
  if (lane == 0) flags[cta] = 1;
  while (flags[1 - cta] == 0) {
  }
  if (cta == who) {
    const long long wait = stamp();
    while (stamp() - wait < delay) {
    }
  }
  __syncwarp();
  const unsigned long long start_ns = global_ns();
  sum += read_lines(buf, lane);
  const unsigned long long end_ns = global_ns();
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    out[cta * 3 + 0] = sm_id();
    out[cta * 3 + 1] = start_ns;
    out[cta * 3 + 2] = end_ns;
  }
}

}  // namespace

int main() {
  ProbeBuffers b(2, 6);
  unsigned long long host[6];
  std::printf("warmer\twho\tdelay\trepeat\tcta\tsm\tstart_ns\tend_ns\n");
  for (int warmer = 0; warmer < 2; ++warmer) {
    for (int who = 0; who < 2; ++who) {
      for (int delay = 0; delay <= 600; delay += 50) {
        for (int repeat = 0; repeat < 2; ++repeat) {
          TWIN_CHECK(cudaMemset(b.flags, 0, sizeof(int) * 2));
          probe<<<2, 32>>>(b.buf, delay, who, warmer, b.flags, b.sink, b.out);
          TWIN_CHECK(cudaGetLastError());
          TWIN_CHECK(cudaMemcpy(host, b.out, sizeof host, cudaMemcpyDeviceToHost));
          for (int c = 0; c < 2; ++c) {
            std::printf("%d\t%d\t%d\t%d\t%d\t%llu\t%llu\t%llu\n", warmer, who, delay, repeat, c,
                        host[c * 3], host[c * 3 + 1], host[c * 3 + 2]);
          }
        }
      }
    }
  }
  return 0;
}
