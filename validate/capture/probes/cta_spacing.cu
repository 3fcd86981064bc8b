// Probe of how far apart one SM starts the CTAs of a launch's first wave, by CTA size. One wave
// (as many CTAs an SM as fit, at most 32) of CTAs of 32 to 1024 threads, each spinning 20,000
// cycles so that the whole wave is resident together; thread 0 stamps clock64 (the SM's clock, one
// cycle steps) and %globaltimer (the GPU's, 32 ns steps) as its first work, with its %smid and
// %warpid. Three launches a size, without a profiler. Prints one row per CTA.
//   nvcc -O3 -std=c++17 -arch=native -o cta_spacing cta_spacing.cu
//   ./cta_spacing > validate/reference/h200/cta_spacing_GPU.tsv
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

namespace {

struct Stamp {
  long long clock;
  unsigned long long ns;
  unsigned sm;
  unsigned warp;
};

__global__ void probe_spacing(Stamp* out) {
  const long long c = clock64();
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  if (threadIdx.x == 0) {
    unsigned s, w;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    out[blockIdx.x] = Stamp{c, t, s, w};
  }
  const long long begin = clock64();
  while (clock64() - begin < 20000) {
  }
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const int sms = prop.multiProcessorCount;
  const int most = sms * 32;
  Stamp* d_out = nullptr;
  if (cudaMalloc(&d_out, most * sizeof(Stamp)) != cudaSuccess) return 1;
  probe_spacing<<<sms, 32>>>(d_out);  // warm-up: code and constants
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  std::printf("threads\trepeat\tcta\tsm\twarpid\tclock\tns\n");
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    const int per_sm = std::min(32, 2048 / threads);
    const int ctas = sms * per_sm;
    for (int r = 0; r < 3; ++r) {
      probe_spacing<<<ctas, threads>>>(d_out);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
      std::vector<Stamp> s(ctas);
      cudaMemcpy(s.data(), d_out, ctas * sizeof(Stamp), cudaMemcpyDeviceToHost);
      for (int c = 0; c < ctas; ++c) {
        std::printf("%d\t%d\t%d\t%u\t%u\t%lld\t%llu\n", threads, r, c, s[c].sm, s[c].warp,
                    s[c].clock, s[c].ns);
      }
    }
  }
  cudaFree(d_out);
  return 0;
}
