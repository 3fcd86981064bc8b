// Probe of how far apart in time the H200 starts the CTAs of one launch across its SMs: each CTA's
// thread 0 reads %globaltimer (one clock for the whole GPU, in ns) and its %smid on entry, then
// the CTA spins 200,000 cycles so that every CTA of the first wave is resident together. Launches
// of 128 CTAs (one wave, as gemm_wgmma_bf16 1024) and 1056 CTAs (8 per SM) of 128 threads, three
// each, run without a profiler. Prints one row per CTA: launch, ctas, repeat, cta, sm, start_ns
// (from the launch's first CTA).
//   nvcc -O3 -arch=sm_90 -o cta_start cta_start.cu && ./cta_start > validate/reference/h200/cta_start.tsv
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

namespace {

__global__ void probe_start(unsigned long long* start_ns, unsigned* sm) {
  if (threadIdx.x == 0) {
    unsigned long long t;
    unsigned s;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    start_ns[blockIdx.x] = t;
    sm[blockIdx.x] = s;
  }
  const long long begin = clock64();
  while (clock64() - begin < 200000) {
  }
}

}  // namespace

int main() {
  std::printf("launch\tctas\trepeat\tcta\tsm\tstart_ns\n");
  int launch = 0;
  for (int ctas : {128, 1056}) {
    unsigned long long* d_start = nullptr;
    unsigned* d_sm = nullptr;
    if (cudaMalloc(&d_start, ctas * sizeof(unsigned long long)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_sm, ctas * sizeof(unsigned)) != cudaSuccess) return 1;
    probe_start<<<ctas, 128>>>(d_start, d_sm);  // warm-up
    cudaDeviceSynchronize();
    for (int r = 0; r < 3; ++r, ++launch) {
      probe_start<<<ctas, 128>>>(d_start, d_sm);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
      std::vector<unsigned long long> start(ctas);
      std::vector<unsigned> sm(ctas);
      cudaMemcpy(start.data(), d_start, ctas * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
      cudaMemcpy(sm.data(), d_sm, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost);
      unsigned long long first = start[0];
      for (unsigned long long t : start) first = t < first ? t : first;
      for (int c = 0; c < ctas; ++c) {
        std::printf("%d\t%d\t%d\t%d\t%u\t%llu\n", launch, ctas, r, c, sm[c], start[c] - first);
      }
    }
    cudaFree(d_start);
    cudaFree(d_sm);
  }
  return 0;
}
