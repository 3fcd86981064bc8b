// Probe of what an SM's stores do to the lines its L1 holds: one CTA of 1024 threads (one SM)
// reads A (L1-cached loads), then streams S bytes through the L1 (stores, or L1-cached loads of
// another buffer, or nothing), then reads A again. The L1 load hits of the launch are A's second
// read's hits: how much of A the stream left. If stores allocate lines as loads do, the two
// streams leave the same; if stores do not allocate, or allocate at low priority, the store
// stream leaves A in place up to larger S. Shared memory 0 with the largest L1 preferred.
// Profile each launch (ncu --cache-control all):
//   l1_store_alloc.sh > validate/reference/h200/l1_store_alloc.tsv
// `l1_store_alloc list` prints one line per launch, in launch order (mode, a_kb, stream_kb).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kAKb[] = {64, 128};
constexpr int kStreamKb[] = {0, 32, 64, 128, 192, 256, 512};
constexpr const char* kModes[] = {"store", "load"};

__device__ __forceinline__ float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__global__ void probe_l1_store(const float* __restrict__ a, float* __restrict__ b,
                               float* sink, int a_floats, int stream_floats, int mode) {
  float acc = 0;
  for (int i = threadIdx.x; i < a_floats; i += blockDim.x) acc += load_ca(a + i);
  __syncthreads();
  if (mode == 0) {
    for (int i = threadIdx.x; i < stream_floats; i += blockDim.x) b[i] = static_cast<float>(i);
  } else {
    for (int i = threadIdx.x; i < stream_floats; i += blockDim.x) acc += load_ca(b + i);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < a_floats; i += blockDim.x) acc += load_ca(a + i);
  if (acc == 1234.5f) *sink = acc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("mode\ta_kb\tstream_kb\n");
    for (const char* m : kModes)
      for (int a : kAKb)
        for (int s : kStreamKb) std::printf("%s\t%d\t%d\n", m, a, s);
    return 0;
  }
  float* a = nullptr;
  float* b = nullptr;
  float* sink = nullptr;
  TWIN_CHECK(cudaMalloc(&a, 128 << 10));
  TWIN_CHECK(cudaMalloc(&b, 512 << 10));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMemset(a, 0, 128 << 10));
  TWIN_CHECK(cudaMemset(b, 0, 512 << 10));
  TWIN_CHECK(cudaFuncSetAttribute(probe_l1_store, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  for (int m = 0; m < 2; ++m)
    for (int akb : kAKb)
      for (int skb : kStreamKb) {
        probe_l1_store<<<1, 1024>>>(a, b, sink, akb << 8, skb << 8, m);
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaDeviceSynchronize());
      }
  TWIN_CHECK(cudaFree(a));
  TWIN_CHECK(cudaFree(b));
  TWIN_CHECK(cudaFree(sink));
  return 0;
}
