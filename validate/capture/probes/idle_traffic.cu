// Probe of the DRAM traffic the H200 makes while a kernel touches no memory: one warp spins on
// clock64() for a set number of SM cycles (1 M to 1 G, about 0.5 ms to 0.5 s) and then stores one
// word. Whatever DRAM reads and writes ncu counts beyond that word are the GPU's own background
// (the long pointer chases read 2-7 MB/s more than their misses; validate/HISTORY.md). Profile with
// one-pass DRAM metrics and --cache-control all, as the reference's points:
//   idle_traffic.sh > validate/reference/h200/idle_traffic.tsv
// `idle_traffic list` prints one line per profiled launch, in launch order (cycles, repeat).
// IDLE_CYCLES (comma-separated SM cycles) and IDLE_REPEATS choose other durations and repeats:
//   IDLE_CYCLES=20000000,50000000,100000000,200000000,500000000 IDLE_REPEATS=5 idle_traffic.sh
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

namespace {

__global__ void probe_spin(long long cycles, unsigned* sink) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  if (threadIdx.x == 0) *sink = static_cast<unsigned>(now - start);
}

std::vector<long long> Durations() {
  std::vector<long long> cycles;
  const char* env = std::getenv("IDLE_CYCLES");
  if (env == nullptr) return {1000000LL, 10000000LL, 100000000LL, 1000000000LL};
  for (char* end = nullptr;; env = end + 1) {
    const long long c = std::strtoll(env, &end, 10);
    if (end == env || c <= 0) break;
    cycles.push_back(c);
    if (*end != ',') break;
  }
  return cycles;
}

int Repeats() {
  const char* env = std::getenv("IDLE_REPEATS");
  const int r = env != nullptr ? std::atoi(env) : 3;
  return r > 0 ? r : 3;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<long long> durations = Durations();
  const int repeats = Repeats();
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("cycles\trepeat\n");
    for (long long c : durations) {
      for (int r = 0; r < repeats; ++r) std::printf("%lld\t%d\n", c, r);
    }
    return 0;
  }
  unsigned* sink = nullptr;
  if (cudaMalloc(&sink, sizeof(unsigned)) != cudaSuccess) return 1;
  for (long long c : durations) {
    for (int r = 0; r < repeats; ++r) {
      probe_spin<<<1, 32>>>(c, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    }
  }
  cudaFree(sink);
  return 0;
}
