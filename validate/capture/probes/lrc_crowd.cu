// How many reads of one line in flight the L2 request coalescer lets join: lrc_pair.cu's reads
// (512 lines, 8 in flight, ld.global.cg) by one warp on each of K SMs next to the same L2
// partition (K = 1-24; the SMs sm_partition.tsv found next to SM 124's partition), all started
// together through a counter in global memory, from DRAM (ncu's cache control). ncu counts per
// launch the read sectors the LRC coalesced; with at most F followers a line in flight takes
// min(K - 1, F) joins, so K readers coalesce 2048 x min(K - 1, F) sectors if they stay together.
// The grid has one CTA per SM (dynamic shared memory); the others return at once.
//
// Output (stdout, TSV): k reader sm start_ns end_ns cycles. Run it under ncu (lrc_crowd.sh).
//
// Build: nvcc -O3 -arch=sm_90 -o lrc_crowd lrc_crowd.cu
#include <cstdio>

#include "clock_probe.cuh"
#include "lrc_reads.cuh"

namespace {

// SMs next to SM 124's L2 partition on our H200 (validate/reference/h200/sm_partition.tsv).
__constant__ int kNear[] = {124, 125, 126, 127, 128, 129, 130, 131, 0,   1,   8,   9,   10,  11,
                            12,  13,  16,  17,  24,  25,  26,  27,  28,  29,  32,  33,  40,  41,
                            42,  43,  44,  45,  48,  49,  56,  57,  58,  59,  60,  61,  70,  71};
constexpr int kMaxReaders = 24;

__global__ void probe(const float* buf, int k, volatile int* arrived, float* sink,
                      unsigned long long* out) {
  extern __shared__ int hold[];
  const unsigned sm = sm_id();
  int reader = -1;
  for (int i = 0; i < k; ++i)
    if (kNear[i] == static_cast<int>(sm)) reader = i;
  if (reader < 0) return;
  read_together(buf, reader, k, sm, arrived, sink, out, hold);
}

}  // namespace

int main() {
  int sms = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int hold = 120 << 10;  // one CTA per SM
  TWIN_CHECK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, hold));
  ProbeBuffers b(1, 4 * kMaxReaders);
  static unsigned long long host[4 * kMaxReaders];
  std::printf("k\treader\tsm\tstart_ns\tend_ns\tcycles\n");
  for (int k : {1, 2, 3, 4, 6, 8, 10, 12, 16, 24}) {
    TWIN_CHECK(cudaMemset(b.flags, 0, sizeof(int)));
    probe<<<sms, 32, hold>>>(b.buf, k, b.flags, b.sink, b.out);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaMemcpy(host, b.out, sizeof(unsigned long long) * 4 * k, cudaMemcpyDeviceToHost));
    for (int r = 0; r < k; ++r)
      std::printf("%d\t%d\t%llu\t%llu\t%llu\t%llu\n", k, r, host[r * 4], host[r * 4 + 1],
                  host[r * 4 + 2], host[r * 4 + 3]);
  }
  return 0;
}
