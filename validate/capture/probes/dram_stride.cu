// Probe of HBM read bandwidth against how much of each 128-byte line a stream uses: 1056 CTAs of
// 256 threads read 2 M floats, thread i of the grid-stride loop the float at i x STRIDE, one
// load in flight per warp (each iteration's FADD waits for its load; `#pragma unroll 1`). At a
// stride of 8 or 16 floats a warp's load covers every sector of 8 or 16 lines (whole lines
// fetched); from 32 floats on, one sector of each of 32 lines, which the L2 widens to a 64-byte
// fetch, so half a line (32), a quarter of two lines' span (64), ... of the DRAM rows is used.
// GB/s = dram__bytes_read.sum / (gpc__cycles_elapsed.max / clock). The same launches as an
// Accel-Sim trace, for the simulator side: dram_stride_trace.py. Profile each launch from an
// empty L2 (ncu --cache-control all, as the capture):
//   dram_stride.sh > validate/reference/h200/dram_stride.tsv
// `dram_stride list` prints one line per launch, in launch order (stride in floats, ctas).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <iterator>

#include "dram_probe.cuh"

namespace {

constexpr int kBlock = 256;
constexpr size_t kCount = size_t{1} << 21;  // loads per launch (2 M, as strided_copy's n)
struct Launch {
  int stride;  // floats
  int ctas;
};
constexpr Launch kLaunches[] = {{8, 1056},  {16, 1056},  {32, 1056}, {64, 1056},
                                {128, 1056}, {256, 1056}, {32, 528},  {32, 264}};
constexpr size_t kMaxStride = 256;

__global__ void probe_stride(const float* __restrict__ in, float* __restrict__ out, size_t count,
                             int stride) {
  float acc = 0;
#pragma unroll 1
  for (size_t i = blockIdx.x * (size_t)kBlock + threadIdx.x; i < count;
       i += (size_t)gridDim.x * kBlock) {
    acc += in[i * stride];
  }
  if (acc == 1234.5f) out[blockIdx.x] = acc;  // never true: keeps the loads, writes nothing
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("stride\tctas\n");
    for (const Launch& l : kLaunches) std::printf("%d\t%d\n", l.stride, l.ctas);
    return 0;
  }
  const size_t floats = kCount * kMaxStride;  // 2 GiB
  const int launches = static_cast<int>(std::size(kLaunches));
  dram_probe::run(floats, launches, [](int k, const float* in, float* out) {
    probe_stride<<<kLaunches[k].ctas, kBlock>>>(in, out, kCount, kLaunches[k].stride);
  });
  return 0;
}
