// Probe of when the L2 writes back the lines it gives up from its record of partly written lines:
// at once, or later. The kernel is partial_writes.cu's (every 32-byte sector of an MB-megabyte
// region gets one store of 4 or 32 bytes at its start), and then each CTA waits TAIL SM cycles
// after its last store before it exits, so the launch lasts that much longer with no more
// traffic of its own. ncu counts DRAM bytes only while the launch runs: if the write-backs of the
// given-up lines trail their fills, a longer tail counts more of them; if they leave with the
// fills, the tail adds nothing. Profile each launch from an empty L2 with one-pass DRAM metrics:
//   partial_tail.sh > validate/reference/h200/partial_tail_<gpu>.tsv
// `partial_tail list` prints one line per launch, in launch order (bytes, MB, tail cycles).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"
#include "partial_kernels.cuh"

namespace {

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132 * 8;
constexpr int kThreads = 256;
struct Launch {
  int bytes;
  int mb;
  long long tail;
};
constexpr long long kTails[] = {0, 20000, 50000, 100000, 200000, 400000};
constexpr int kSizes[] = {8, 16, 24, 32};

__global__ void probe_tail(float* p, size_t sectors, int floats, long long tail) {
  partial_kernels::store_partial(p, sectors, floats);
  __syncthreads();
  if (threadIdx.x == 0 && tail > 0) {
    const long long start = clock64();
    while (clock64() - start < tail) {
    }
  }
}

int launches(Launch* out) {
  int n = 0;
  for (int mb : kSizes) {
    for (long long t : kTails) out[n++] = {4, mb, t};
  }
  for (long long t : {0LL, 400000LL}) out[n++] = {32, 32, t};
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  Launch all[64];
  const int n = launches(all);
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("bytes\tmb\ttail\n");
    for (int i = 0; i < n; ++i) std::printf("%d\t%d\t%lld\n", all[i].bytes, all[i].mb, all[i].tail);
    return 0;
  }
  const size_t max_bytes = 32 * kMB;
  float* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, max_bytes));
  TWIN_CHECK(cudaMemset(p, 0, max_bytes));
  for (int i = 0; i < n; ++i) {
    probe_tail<<<kCtas, kThreads>>>(p, all[i].mb * kMB / 32, all[i].bytes / 4, all[i].tail);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
  }
  TWIN_CHECK(cudaFree(p));
  return 0;
}
