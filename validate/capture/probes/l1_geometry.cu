// The L1's geometry on the GPU at hand: one thread chases pointers through n lines placed
// `stride` bytes apart, with L1-cached loads (ld.global.ca), after a warm-up pass, and reports
// the mean cycles per load. A load that hits the L1 takes its hit latency (about 35 cycles on the
// H200); one that misses takes the L2's (about 260). For each stride, the largest n that still
// hits tells how many lines of that stride the L1 holds: n = ways where the stride maps every
// line to one set, n = capacity / 128 B where it spreads them over all sets. Each row is run at
// two shared-memory carve-outs (the kernel's preferred carve-out, in percent).
//
// Output (stdout, TSV): carveout_pct stride_bytes lines cycles_per_load
//
// Build: nvcc -O3 -arch=sm_90 -o l1_geometry l1_geometry.cu
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../../../workloads/cuda/twins.cuh"  // TWIN_CHECK

__device__ __forceinline__ unsigned long long load_ca(unsigned long long address) {
  unsigned long long value;
  asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
  return value;
}

// Element i (at byte i * stride) holds the address of element (i + 1) mod n.
__global__ void link(char* base, unsigned long long stride, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int next = i + 1 == n ? 0 : i + 1;
  *reinterpret_cast<unsigned long long*>(base + static_cast<unsigned long long>(i) * stride) =
      reinterpret_cast<unsigned long long>(base + static_cast<unsigned long long>(next) * stride);
}

__global__ void chase(const char* base, int n, int passes, unsigned long long* out) {
  unsigned long long p = reinterpret_cast<unsigned long long>(base);
  for (int i = 0; i < n; ++i) p = load_ca(p);  // warm-up pass
  const long long start = clock64();
  for (int r = 0; r < passes; ++r) {
    for (int i = 0; i < n; ++i) p = load_ca(p);
  }
  const long long stop = clock64();
  out[0] = static_cast<unsigned long long>(stop - start);
  out[1] = p;  // keeps the chain live
}

int main() {
  const unsigned long long kBuffer = 512ull << 20;
  char* base = nullptr;
  unsigned long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&base, kBuffer));
  TWIN_CHECK(cudaMalloc(&out, 2 * sizeof(unsigned long long)));
  std::vector<int> counts;
  for (int n = 1; n <= 64; ++n) counts.push_back(n);
  for (int n : {72, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 640, 768, 896, 1024,
                1152, 1280, 1408, 1536, 1664, 1792, 1920, 2048, 2176, 2304}) {
    counts.push_back(n);
  }
  const unsigned long long strides[] = {128,  256,   512,   1024,  2048,   4096,  8192,
                                        16384, 32768, 65536, 131072, 3 * 4096, 5 * 4096};
  std::printf("carveout_pct\tstride_bytes\tlines\tcycles_per_load\n");
  for (int carveout : {0, 100}) {
    TWIN_CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
    for (unsigned long long stride : strides) {
      for (int n : counts) {
        if (static_cast<unsigned long long>(n) * stride > kBuffer) continue;
        link<<<(n + 255) / 256, 256>>>(base, stride, n);
        const int passes = n >= 4096 ? 4 : (16384 + n - 1) / n;
        chase<<<1, 1>>>(base, n, passes, out);
        TWIN_CHECK(cudaGetLastError());
        unsigned long long result[2];
        TWIN_CHECK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
        std::printf("%d\t%llu\t%d\t%.2f\n", carveout, stride, n,
                    static_cast<double>(result[0]) / (static_cast<double>(passes) * n));
      }
    }
  }
  TWIN_CHECK(cudaFree(base));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
