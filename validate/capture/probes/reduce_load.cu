// Probe of load-to-use latency against concurrency for coalesced loads: the reduce_shared_tree
// twin's kernel (workloads/cuda/reduction.cu: each warp keeps one 128-byte load in flight, the
// next iteration's load waiting on the FADD of the last) launched at 1 to 1056 CTAs of 256
// threads over a region in HBM, so that the warps per SM, and with them the DRAM bandwidth drawn,
// grow while each warp's loop stays the same. Cycles per iteration = gpc__cycles_elapsed.max over
// the iterations each thread makes; `warpsim run --workload reduce_shared_tree --param ctas=C
// --param n=N` simulates the same launch. Profile each launch from an empty L2 (ncu
// --cache-control all, as the capture):
//   reduce_load.sh > validate/reference/h200/reduce_load.tsv
// `reduce_load list` prints one line per launch, in launch order (ctas, n).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kBlock = 256;
struct Launch {
  int ctas;
  int n;
};
constexpr Launch kLaunches[] = {{1, 1 << 20},    {33, 1 << 22},   {66, 1 << 24},  {132, 1 << 24},
                                {264, 1 << 24},  {396, 1 << 24},  {528, 1 << 24}, {792, 1 << 24},
                                {1056, 1 << 24}, {528, 1 << 26},  {1056, 1 << 26}};

// The twin's w_reduce_shared_tree, token for token.
__global__ void probe_reduce(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[kBlock];
  float acc = 0;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void fill(float* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = 1.0f + (float)(i % 1021) * 0.001f;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("ctas\tn\n");
    for (const Launch& l : kLaunches) std::printf("%d\t%d\n", l.ctas, l.n);
    return 0;
  }
  const size_t max_n = size_t{1} << 26;
  float* in = nullptr;
  float* out = nullptr;
  TWIN_CHECK(cudaMalloc(&in, max_n * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, 2048 * sizeof(float)));
  fill<<<1024, 256>>>(in, max_n);
  TWIN_CHECK(cudaDeviceSynchronize());
  for (const Launch& l : kLaunches) {
    probe_reduce<<<l.ctas, kBlock>>>(in, out, l.n);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
  }
  TWIN_CHECK(cudaFree(in));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
