// Probe of where a short memory-bound kernel's time goes: the transpose_tile33 twin (a 32 x 33
// shared tile, 32 x 8 threads, each thread loads 4 floats, barrier, stores 4) with every warp
// timing its phases with clock64: t0 at entry, t1 once its 4 loads have reached shared memory
// (each STS waits for its load), t2 after the barrier, t3 once its 4 stores are issued; and its
// SM. Run under ncu --cache-control all (an empty L2, as the capture) by cta_timeline.sh, which
// also profiles the plain twin kernel to show what the timing costs. Each n runs with rows
// n floats apart (the twin) and padded by 32 floats (pitch n + 32), which moves every row's
// start to another set of DRAM channels and banks. Writes one row per warp:
//   cta_timeline OUT_DIR   ->  OUT_DIR/warps_<n>_<pitch>.tsv (n, cta, warp, sm, t0, t1, t2, t3)
// and one wave of n = 2048 (1024 CTAs) with every SM loading (warps_wave_all.tsv), then with only
// SM 0's CTAs loading while the others leave at once (warps_wave_sm0.tsv): SM 0's burst against
// an idle memory system.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;
constexpr int kFields = 5;

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// The twin's kernel (workloads/cuda/transpose.cu, w_transpose_tiled<1>), repeated here so that the
// probe builds alone. n is the row pitch in floats.
__global__ void probe_plain(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// only_sm >= 0: the CTAs on other SMs leave at once, so SM only_sm's burst meets an idle memory.
__global__ void probe_timed(const float* __restrict__ in, float* __restrict__ out, int n,
                            long long* __restrict__ rec, int only_sm) {
  __shared__ float tile[kTile][kTile + 1];
  const long long t0 = stamp();
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (only_sm >= 0 && sm != unsigned(only_sm)) return;
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  float v[kTile / kRows];
  for (int j = 0; j < kTile; j += kRows) v[j / kRows] = in[(y + j) * n + x];
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = v[j / kRows];
  const long long t1 = stamp();
  __syncthreads();
  const long long t2 = stamp();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  float* at[kTile / kRows];
  float w[kTile / kRows];
  for (int j = 0; j < kTile; j += kRows) {
    at[j / kRows] = &out[(y + j) * n + x];
    w[j / kRows] = tile[threadIdx.x][threadIdx.y + j];
    *at[j / kRows] = w[j / kRows];
  }
  const long long t3 = stamp();
  // The compiler gives this stamp the first STG's address register (cta_timeline_sass.txt), so
  // it also waits until that STG's operands are read: t3 - t2 bounds the store phase from above.
  if (threadIdx.x == 0) {
    const size_t k = (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * kRows + threadIdx.y;
    long long* r = rec + k * kFields;
    r[0] = sm;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
    r[4] = t3;
  }
}

__global__ void fill(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    p[i] = float((i * 2654435761u) & 0xffff) / 65536.0f;
  }
}

// Launches the plain kernel, then the timed one over `rows` tile rows of an n x n matrix (all of
// them when rows = n / 32), and writes the timed warps (those that ran) to OUT_DIR/warps_<tag>.tsv.
void run(int n, int pitch, int rows, int only_sm, const std::string& dir, const std::string& tag) {
  const size_t elems = size_t(pitch) * n;
  const size_t warps = size_t(n / kTile) * rows * kRows;
  float* in = nullptr;
  float* out = nullptr;
  TWIN_CHECK(cudaMalloc(&in, elems * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, elems * sizeof(float)));
  fill<<<1024, 256>>>(in, elems);
  TWIN_CHECK(cudaMemset(out, 0xff, elems * sizeof(float)));
  long long* rec = nullptr;
  TWIN_CHECK(cudaMalloc(&rec, warps * kFields * sizeof(long long)));
  TWIN_CHECK(cudaMemset(rec, 0xff, warps * kFields * sizeof(long long)));
  const dim3 grid(n / kTile, rows), block(kTile, kRows);
  probe_plain<<<grid, block>>>(in, out, pitch);
  TWIN_CHECK(cudaDeviceSynchronize());
  probe_timed<<<grid, block>>>(in, out, pitch, rec, only_sm);
  TWIN_CHECK(cudaDeviceSynchronize());
  std::vector<long long> host(warps * kFields);
  TWIN_CHECK(cudaMemcpy(host.data(), rec, host.size() * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  const std::string path = dir + "/warps_" + tag + ".tsv";
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "cta_timeline: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "n\tcta\twarp\tsm\tt0\tt1\tt2\tt3\n");
  for (size_t w = 0; w < warps; ++w) {
    const long long* r = &host[w * kFields];
    if (r[0] < 0) continue;  // a warp that left at once (only_sm)
    std::fprintf(f, "%d\t%zu\t%zu\t%lld\t%lld\t%lld\t%lld\t%lld\n", n, w / kRows, w % kRows, r[0],
                 r[1], r[2], r[3], r[4]);
  }
  std::fclose(f);
  cudaFree(in);
  cudaFree(out);
  cudaFree(rec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cta_timeline OUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  for (int n : {2048, 4096}) {
    for (int pitch : {n, n + 32}) {
      run(n, pitch, n / kTile, -1, dir, std::to_string(n) + "_" + std::to_string(pitch));
    }
  }
  // One wave (16 tile rows of n = 2048: 1024 CTAs, under 8 per SM): every SM's burst at once,
  // then SM 0's alone.
  run(2048, 2048, 16, -1, dir, "wave_all");
  run(2048, 2048, 16, 0, dir, "wave_sm0");
  return 0;
}
