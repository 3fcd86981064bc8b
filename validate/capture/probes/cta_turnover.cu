// Probe of how fast an SM takes a new CTA into a slot its last CTA freed. Grids of eight waves of
// short CTAs (32, 256 or 1024 threads; as many CTAs an SM as fit: 32, 8 or 2), each CTA spinning
// 0 or 2,000 cycles after a barrier; thread 0 stamps clock64 on entry and on exit and records its
// %smid. On one SM the stamps share a clock, so each CTA's start can be set against the exits
// before it: how long a slot stays empty, and whether the SM starts its CTAs one at a time.
//   nvcc -O3 -std=c++17 -arch=native -o cta_turnover cta_turnover.cu
//   ./cta_turnover stamps | gzip > validate/reference/h200/cta_turnover_GPU.tsv.gz
// `cta_turnover run` launches the same grids once each (for Nsight Compute: elapsed cycles and the
// warps' stalls, cta_turnover.sh); `cta_turnover list` prints one line per launch of `run`.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

namespace {

__global__ void probe_turnover(long long spin, long long* start, long long* end, unsigned* sm) {
  long long t0 = clock64();
  __syncthreads();
  const long long begin = clock64();
  while (clock64() - begin < spin) {
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    start[blockIdx.x] = t0;
    end[blockIdx.x] = clock64();
    sm[blockIdx.x] = s;
  }
}

struct Launch {
  int threads;
  int per_sm;
  long long spin;
};
constexpr Launch kLaunches[] = {{32, 32, 0},   {256, 8, 0},   {1024, 2, 0},
                                {32, 32, 2000}, {256, 8, 2000}, {1024, 2, 2000}};
constexpr int kWaves = 8;

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "stamps";
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const int sms = prop.multiProcessorCount;
  if (std::strcmp(mode, "list") == 0) {
    std::printf("threads\tper_sm\tspin\tctas\n");
    for (const Launch& l : kLaunches) {
      std::printf("%d\t%d\t%lld\t%d\n", l.threads, l.per_sm, l.spin, sms * l.per_sm * kWaves);
    }
    return 0;
  }
  const bool stamps = std::strcmp(mode, "stamps") == 0;
  const int most = sms * 32 * kWaves;
  long long *d_start = nullptr, *d_end = nullptr;
  unsigned* d_sm = nullptr;
  if (cudaMalloc(&d_start, most * sizeof(long long)) != cudaSuccess) return 1;
  if (cudaMalloc(&d_end, most * sizeof(long long)) != cudaSuccess) return 1;
  if (cudaMalloc(&d_sm, most * sizeof(unsigned)) != cudaSuccess) return 1;
  if (stamps) std::printf("threads\tspin\trepeat\tcta\tsm\tstart\tend\n");
  for (const Launch& l : kLaunches) {
    const int ctas = sms * l.per_sm * kWaves;
    for (int r = 0; r < (stamps ? 3 : 1); ++r) {
      probe_turnover<<<ctas, l.threads>>>(l.spin, d_start, d_end, d_sm);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
      if (!stamps) continue;
      std::vector<long long> start(ctas), end(ctas);
      std::vector<unsigned> sm(ctas);
      cudaMemcpy(start.data(), d_start, ctas * sizeof(long long), cudaMemcpyDeviceToHost);
      cudaMemcpy(end.data(), d_end, ctas * sizeof(long long), cudaMemcpyDeviceToHost);
      cudaMemcpy(sm.data(), d_sm, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost);
      for (int c = 0; c < ctas; ++c) {
        std::printf("%d\t%lld\t%d\t%d\t%u\t%lld\t%lld\n", l.threads, l.spin, r, c, sm[c],
                    start[c], end[c]);
      }
    }
  }
  cudaFree(d_start);
  cudaFree(d_end);
  cudaFree(d_sm);
  return 0;
}
