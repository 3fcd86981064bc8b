// Probe of where a pointer chase's extra DRAM reads come from: the latency twin's chase (one warp,
// one Sattolo cycle over 128-byte nodes, workloads/cuda/latency.cu) over 1, 8 and 20 MB, run for
// 1, 2, 4 and 8 passes over its nodes. One 64-byte fetch per node is the cold pass's share; what
// the H200 reads beyond it either grows with the passes (reads while the lines are resident) or
// not (the first pass). Profile with one-pass DRAM metrics and --cache-control all, as the
// reference's points:
//   chase_passes.sh > validate/reference/h200/chase_passes.tsv
// `chase_passes list` prints one line per profiled launch, in launch order (MB, passes, hops).
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../../../workloads/cuda/chase_chain.cuh"

namespace {

constexpr size_t kNodeBytes = twins::kChaseNodeBytes;
constexpr int kMegabytes[] = {1, 8, 20};
constexpr int kPasses[] = {1, 2, 4, 8};

__global__ void probe_chase(const unsigned* __restrict__ chain, int hops, unsigned* sink) {
  unsigned idx = 0;
  for (int h = 0; h < hops; ++h) idx = chain[idx];
  if (threadIdx.x == 0) *sink = idx;
}

}  // namespace

int main(int argc, char** argv) {
  const bool list = argc > 1 && std::strcmp(argv[1], "list") == 0;
  if (list) std::printf("mb\tpasses\thops\n");
  unsigned* sink = nullptr;
  if (!list && cudaMalloc(&sink, sizeof(unsigned)) != cudaSuccess) return 1;
  for (int mb : kMegabytes) {
    const size_t bytes = static_cast<size_t>(mb) << 20;
    const size_t nodes = bytes / kNodeBytes;
    unsigned* chain = nullptr;
    if (!list) {
      const std::vector<unsigned> host = twins::chase_chain(bytes);
      if (cudaMalloc(&chain, bytes) != cudaSuccess) return 1;
      cudaMemcpy(chain, host.data(), bytes, cudaMemcpyHostToDevice);
    }
    for (int p : kPasses) {
      const int hops = static_cast<int>(nodes) * p;
      if (list) {
        std::printf("%d\t%d\t%d\n", mb, p, hops);
        continue;
      }
      probe_chase<<<1, 32>>>(chain, hops, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    }
    if (chain) cudaFree(chain);
  }
  if (sink) cudaFree(sink);
  return 0;
}
