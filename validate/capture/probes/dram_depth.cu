// Probe of HBM read bandwidth against the loads a warp keeps in flight and how much of each
// 128-byte line it reads: CTAS CTAs of 256 threads read the first SECTORS sectors (32, 64 or
// 128 bytes) of each of 2 M consecutive lines (a 256 MB span), one 16-byte load per lane, so a
// warp's load covers 16, 8 or 4 lines; each warp issues LOADS such loads, a grid of warps apart,
// before it uses any (`#pragma unroll 1` on the loop around them), so LOADS loads are in flight
// per warp. dram_stride.cu keeps one load in flight; the streaming kernels of the reference and
// of PyTorch keep several. GB/s = dram__bytes_read.sum / (gpc__cycles_elapsed.max / clock). The
// same launches as Accel-Sim traces, for the simulator side: dram_depth_trace.py; compared by
// dram_depth_compare.py. Profile each launch from an empty L2 (ncu --cache-control all):
//   dram_depth.sh > validate/reference/h200/dram_depth.tsv
// `dram_depth list` prints one line per launch, in launch order (sectors, loads, ctas).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "dram_probe.cuh"

namespace {

constexpr int kBlock = 256;
constexpr size_t kLines = size_t{1} << 21;  // 2 M lines of 128 bytes
struct Launch {
  int sectors;  // read of each line: 1, 2 or 4 sectors from its start
  int loads;    // loads in flight per warp
  int ctas;
};

std::vector<Launch> launches() {
  std::vector<Launch> out;
  for (int ctas : {1056, 264}) {
    for (int sectors : {1, 2, 4}) {
      for (int loads : {1, 2, 4, 8}) out.push_back({sectors, loads, ctas});
    }
  }
  return out;
}

template <int kLoads>
__global__ void probe_depth(const float4* __restrict__ in, float* __restrict__ out, int sectors) {
  const int lane = threadIdx.x & 31;
  const int lanes_per_line = 2 * sectors;  // 16 bytes a lane
  const size_t lines_per_load = 32 / lanes_per_line;
  const size_t line_in_load = lane / lanes_per_line;
  const int part = lane % lanes_per_line;
  const size_t warp = (blockIdx.x * (size_t)kBlock + threadIdx.x) / 32;
  const size_t warps = gridDim.x * (size_t)kBlock / 32;
  const size_t chunks = kLines / lines_per_load;
  float acc = 0;
#pragma unroll 1
  for (size_t c = warp; c < chunks; c += warps * kLoads) {
    float4 v[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {
      const size_t chunk = c + j * warps;
      v[j] = chunk < chunks ? in[(chunk * lines_per_load + line_in_load) * 8 + part]
                            : make_float4(0, 0, 0, 0);
    }
#pragma unroll
    for (int j = 0; j < kLoads; ++j) acc += v[j].x + v[j].y + v[j].z + v[j].w;
  }
  if (acc == 1234.5f) out[blockIdx.x] = acc;  // never true: keeps the loads, writes nothing
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Launch> all = launches();
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("sectors\tloads\tctas\n");
    for (const Launch& l : all) std::printf("%d\t%d\t%d\n", l.sectors, l.loads, l.ctas);
    return 0;
  }
  dram_probe::run(kLines * 32, static_cast<int>(all.size()), [&](int k, const float* in, float* out) {
    const Launch& l = all[k];
    const auto* v = reinterpret_cast<const float4*>(in);
    switch (l.loads) {
      case 1: probe_depth<1><<<l.ctas, kBlock>>>(v, out, l.sectors); break;
      case 2: probe_depth<2><<<l.ctas, kBlock>>>(v, out, l.sectors); break;
      case 4: probe_depth<4><<<l.ctas, kBlock>>>(v, out, l.sectors); break;
      default: probe_depth<8><<<l.ctas, kBlock>>>(v, out, l.sectors); break;
    }
  });
  return 0;
}
