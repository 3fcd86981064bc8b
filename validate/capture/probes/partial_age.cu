// Probe of how long the L2 keeps a partly written line before giving it up (reading its missing
// bytes and writing it back), with few such lines at a time, far fewer than the record holds.
// 132 CTAs of 256 threads walk the sectors of an MB-megabyte region (grid-stride, about four
// sectors a thread at 4 MB), so at most 33,792 sectors, about 1 MB of lines, are written in part
// at once:
//   mode 0 (halves): a thread stores the first 16 bytes of its sector, waits GAP SM cycles, then
//                    stores the other 16, completing it. A line is partial for about GAP cycles.
//   mode 1 (paced):  a thread stores 4 bytes at the start of its sector and waits GAP cycles
//                    before its next sector; the lines are never completed, and the launch takes
//                    about four GAPs.
//   mode 2 (two SMs): CTA c < 66 stores the first 16 bytes of the sectors of chunk c (the region
//                    in 66 chunks), CTA c + 66, another SM, the other 16 after GAP cycles;
//   mode 3 (one SM):  as mode 2, but warps 0-3 and warps 4-7 of one CTA share a chunk (132
//                    chunks).
// Modes 2 and 3 tell whether a line written in part from two SMs (which may sit in different L2
// partitions, so that each partition holds part of the line) is given up where one SM's is not.
// If the record gives lines up by age, DRAM reads (the fills) appear once GAP passes that age;
// if only by capacity, none do at any GAP. Profile each launch from an empty L2 with one-pass
// DRAM metrics. Paced launches of 16 MB follow, to see whether a slower stream beyond the
// record's size gives up more of the same lines:
//   partial_age.sh > validate/reference/h200/partial_age_<gpu>.tsv
// `partial_age list` prints one line per launch, in launch order (mode, MB, gap cycles).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132;
constexpr int kThreads = 256;
struct Launch {
  int mode;
  int mb;
  long long gap;
};
constexpr long long kGaps[] = {0, 500, 1000, 2000, 5000, 10000, 20000, 50000};

__device__ void wait_cycles(long long gap) {
  const long long start = clock64();
  while (clock64() - start < gap) {
  }
}

// Modes 2 and 3: two writers (two CTAs, or two halves of one CTA) per chunk of the region.
__device__ void two_writers(float* p, size_t sectors, int mode, long long gap) {
  const bool cta_pairs = mode == 2;
  const size_t chunks = cta_pairs ? gridDim.x / 2 : gridDim.x;
  const size_t chunk = cta_pairs ? blockIdx.x % chunks : blockIdx.x;
  const bool second = cta_pairs ? blockIdx.x >= chunks : threadIdx.x >= blockDim.x / 2;
  const size_t threads = cta_pairs ? blockDim.x : blockDim.x / 2;
  const size_t lane = cta_pairs ? threadIdx.x : threadIdx.x % threads;
  const size_t per_chunk = sectors / chunks;
  if (second) wait_cycles(gap);
  for (size_t s = chunk * per_chunk + lane; s < (chunk + 1) * per_chunk; s += threads) {
    reinterpret_cast<float4*>(p + s * 8)[second ? 1 : 0] =
        make_float4(1.0f, 2.0f, 3.0f, (float)s);
  }
}

__global__ void probe_age(float* p, size_t sectors, int mode, long long gap) {
  if (mode >= 2) {
    two_writers(p, sectors, mode, gap);
    return;
  }
  for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < sectors;
       s += (size_t)gridDim.x * blockDim.x) {
    float* at = p + s * 8;
    if (mode == 0) {
      reinterpret_cast<float4*>(at)[0] = make_float4(1.0f, 2.0f, 3.0f, (float)s);
      wait_cycles(gap);
      reinterpret_cast<float4*>(at)[1] = make_float4(5.0f, 6.0f, 7.0f, (float)s);
    } else {
      at[0] = (float)s;
      wait_cycles(gap);
    }
  }
}

int launches(Launch* out) {
  int n = 0;
  for (int mode : {0, 1}) {
    for (long long g : kGaps) out[n++] = {mode, 4, g};
  }
  // Beyond the record's size (the H200 starts giving lines up between 4 and 8 MB): does a slower
  // stream of the same lines give up more?
  for (long long g : {0LL, 1000LL, 5000LL}) out[n++] = {1, 16, g};
  for (int mode : {2, 3}) {
    for (long long g : {0LL, 2000LL, 20000LL}) out[n++] = {mode, 4, g};
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  Launch all[32];
  const int n = launches(all);
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("mode\tmb\tgap\n");
    for (int i = 0; i < n; ++i) std::printf("%d\t%d\t%lld\n", all[i].mode, all[i].mb, all[i].gap);
    return 0;
  }
  const size_t max_bytes = 16 * kMB;
  float* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, max_bytes));
  TWIN_CHECK(cudaMemset(p, 0, max_bytes));
  for (int i = 0; i < n; ++i) {
    probe_age<<<kCtas, kThreads>>>(p, all[i].mb * kMB / 32, all[i].mode, all[i].gap);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
  }
  TWIN_CHECK(cudaFree(p));
  return 0;
}
