// Probe of where an HBM row's other chunks lie: 1056 CTAs of 256 threads, thread i of the
// grid-stride loop reading two floats, one at byte i x 512 (an even 256-byte chunk) and one D bytes
// further (D = 128: the same chunk's other line; D = 256 + 512 k: an odd chunk, so that no two
// threads share a chunk), one load pair in flight per warp, 1 M pairs a launch: 2 M 64-byte
// fetches, as dram_stride.cu's stride-64 launch (one fetch a chunk). Where the second fetch finds
// the row the first opened, the launch runs as dram_stride's stride 32 (two fetches a chunk);
// where not, as its stride 64. Profile each launch from an empty L2 (ncu --cache-control all):
//   dram_rowmates.sh > validate/reference/h200/dram_rowmates.tsv
// `dram_rowmates list` prints one line per launch, in launch order (D in bytes).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <iterator>

#include "dram_probe.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kCtas = 1056;
constexpr size_t kPairs = size_t{1} << 20;
constexpr size_t kDistances[] = {
    128,             256,             256 + 512,        256 + 512 * 3,   256 + 512 * 7,
    256 + 512 * 15,  256 + 512 * 63,  256 + 512 * 95,   256 + 512 * 191, 256 + 512 * 383,
    256 + 512 * 1535, 256 + 512 * 6143};

__global__ void probe_pairs(const float* __restrict__ in, float* __restrict__ out, size_t pairs,
                            size_t distance_floats) {
  float acc = 0;
#pragma unroll 1
  for (size_t i = blockIdx.x * (size_t)kBlock + threadIdx.x; i < pairs;
       i += (size_t)gridDim.x * kBlock) {
    const float a = in[i * 128];
    const float b = in[i * 128 + distance_floats];
    acc += a + b;
  }
  if (acc == 1234.5f) out[blockIdx.x] = acc;  // never true: keeps the loads, writes nothing
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("distance\n");
    for (size_t d : kDistances) std::printf("%zu\n", d);
    return 0;
  }
  const size_t floats = kPairs * 128 + kDistances[std::size(kDistances) - 1] / 4 + 1;
  const int launches = static_cast<int>(std::size(kDistances));
  dram_probe::run(floats, launches, [](int k, const float* in, float* out) {
    probe_pairs<<<kCtas, kBlock>>>(in, out, kPairs, kDistances[k] / 4);
  });
  return 0;
}
