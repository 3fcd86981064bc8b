// Probe of where a load burst's head latency comes from. Each warp of 32 x 8-thread CTAs over
// tile rows of an n = 2048 float matrix (as the transpose_tile33 twin's loads) stamps clock64 at
// entry (t0), after 4 loads of its rows reached shared memory (t1), and after 4 more loads of the
// same rows of a second matrix did (t2): phase 1 meets whatever is cold at a kernel's start (its
// instruction and constant caches), phase 2 the same burst with those warm. Four shapes, each
// against an empty L2 (the capture's ncu --cache-control all) or with both matrices already in
// the L2 (a kernel reads them with ld.global.cg first, no cache control):
//   one_warp  CTA (0,0)'s first warp alone (all other warps leave at once)
//   one_cta   CTA (0,0)'s 8 warps
//   sm0       the CTAs that land on SM 0 (about 8)
//   all       1024 CTAs on every SM (under 8 per SM)
// Writes OUT_DIR/burst_<cold|warm>_<shape>.tsv: cta, warp, sm, t0, t1, t2 per warp that ran.
//   burst OUT_DIR cold|warm
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;
constexpr int kN = 2048;
constexpr int kTileRows = 16;  // one wave: 64 x 16 CTAs
constexpr int kFields = 4;

enum Shape { kOneWarp = 0, kOneCta = 1, kSm0 = 2, kAll = 3 };
const char* const kShapeNames[] = {"one_warp", "one_cta", "sm0", "all"};

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__global__ void probe_burst(const float* __restrict__ a, const float* __restrict__ b, int n,
                            long long* __restrict__ rec, int shape) {
  __shared__ volatile float tile[2][kTile][kTile + 1];  // volatile: the STSs stay
  const long long t0 = stamp();
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  const bool first_cta = blockIdx.x == 0 && blockIdx.y == 0;
  if ((shape == kOneWarp && !(first_cta && threadIdx.y == 0)) || (shape == kOneCta && !first_cta) ||
      (shape == kSm0 && sm != 0)) {
    return;
  }
  // Each phase's addresses depend on the stamp before it (a zero the compiler cannot see), so that
  // its loads issue after the stamp.
  const int x = blockIdx.x * kTile + threadIdx.x + int(t0 >> 62);
  const int y = blockIdx.y * kTile + threadIdx.y;
  float v[kTile / kRows];
  for (int j = 0; j < kTile; j += kRows) v[j / kRows] = a[(y + j) * n + x];
  for (int j = 0; j < kTile; j += kRows) tile[0][threadIdx.y + j][threadIdx.x] = v[j / kRows];
  const long long t1 = stamp();
  const int x2 = x + int(t1 >> 62);
  for (int j = 0; j < kTile; j += kRows) v[j / kRows] = b[(y + j) * n + x2];
  for (int j = 0; j < kTile; j += kRows) tile[1][threadIdx.y + j][threadIdx.x] = v[j / kRows];
  const long long t2 = stamp();
  if (threadIdx.x == 0) {
    const size_t k = (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * kRows + threadIdx.y;
    long long* r = rec + k * kFields;
    r[0] = sm;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
  }
}

// Brings both matrices into the L2 without the L1 (ld.global.cg).
__global__ void warm(const float* __restrict__ a, const float* __restrict__ b, size_t elems,
                     float* sink) {
  float acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < elems;
       i += size_t(gridDim.x) * blockDim.x) {
    acc += __ldcg(a + i) + __ldcg(b + i);
  }
  if (acc == 1234.5f) *sink = acc;
}

__global__ void fill(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    p[i] = float((i * 2654435761u) & 0xffff) / 65536.0f;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || (std::strcmp(argv[2], "cold") != 0 && std::strcmp(argv[2], "warm") != 0)) {
    std::fprintf(stderr, "usage: burst OUT_DIR cold|warm\n");
    return 2;
  }
  const std::string dir = argv[1];
  const bool warm_l2 = std::strcmp(argv[2], "warm") == 0;
  const size_t elems = size_t(kN) * kTileRows * kTile;  // the rows one wave reads
  const size_t warps = size_t(kN / kTile) * kTileRows * kRows;
  float *a = nullptr, *b = nullptr, *sink = nullptr;
  long long* rec = nullptr;
  TWIN_CHECK(cudaMalloc(&a, elems * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&b, elems * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&rec, warps * kFields * sizeof(long long)));
  fill<<<1024, 256>>>(a, elems);
  fill<<<1024, 256>>>(b, elems);
  std::vector<long long> host(warps * kFields);
  for (int shape : {kOneWarp, kOneCta, kSm0, kAll}) {
    TWIN_CHECK(cudaMemset(rec, 0xff, warps * kFields * sizeof(long long)));
    if (warm_l2) warm<<<264, 256>>>(a, b, elems, sink);
    TWIN_CHECK(cudaDeviceSynchronize());
    probe_burst<<<dim3(kN / kTile, kTileRows), dim3(kTile, kRows)>>>(a, b, kN, rec, shape);
    TWIN_CHECK(cudaDeviceSynchronize());
    TWIN_CHECK(cudaMemcpy(host.data(), rec, host.size() * sizeof(long long),
                          cudaMemcpyDeviceToHost));
    const std::string path =
        dir + "/burst_" + argv[2] + "_" + kShapeNames[shape] + ".tsv";
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "burst: cannot write %s\n", path.c_str());
      return 1;
    }
    std::fprintf(f, "cta\twarp\tsm\tt0\tt1\tt2\n");
    for (size_t w = 0; w < warps; ++w) {
      const long long* r = &host[w * kFields];
      if (r[0] < 0) continue;  // a warp that left at once
      std::fprintf(f, "%zu\t%zu\t%lld\t%lld\t%lld\t%lld\n", w / kRows, w % kRows, r[0], r[1], r[2],
                   r[3]);
    }
    std::fclose(f);
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(sink);
  cudaFree(rec);
  return 0;
}
