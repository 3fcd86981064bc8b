// How many memory instructions a sub-partition may have waiting in front of the SM's shared L1 and
// shared-memory data paths, alone and when the other sub-partitions queue too. One CTA of W warps
// (warp w on sub-partition w % 4) issues 24 independent slow accesses back to back, each followed
// by a clock64 read, so a warp's clock stamps show when an access could not be queued:
//   - lsu: L1-resident loads (ld.global.ca) whose 32 lanes touch 32 different lines, 32 tag-stage
//     cycles each (l1_lines.tsv);
//   - mio: shared loads whose 32 lanes read 32 different rows of one bank, 32 wavefronts each.
// While the queue has room the stamps are a few cycles apart; once it is full each one waits for
// an access to leave (about 32 cycles x the warps sharing the path). The warps first warm the
// buffer (lsu), then meet at a barrier.
//
// Output (stdout, TSV): path warps warp access cycles (clock64 after the access's issue, from the
// warp's stamp before the first).
//
// Build: nvcc -O3 -arch=sm_90 -o lsu_queue lsu_queue.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kAccesses = 24;
constexpr int kMaxWarps = 32;

__device__ __forceinline__ float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ float load_shared(const float* p) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];"
               : "=f"(v)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p))));
  return v;
}

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// 32 lines of 128 bytes: lane l reads a word of line l, a different word for each access (ptxas
// merges loads of one address), never two in a row from one 16-byte chunk.
__global__ void probe_lsu(const float* __restrict__ buf, float* sink, long long* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  float acc = load_ca(buf + lane * 32);
  for (int i = 1; i < 32; ++i) acc += load_ca(buf + lane * 32 + i);
  if (acc == 1234.5f) *sink = acc;  // waits for the warm-up loads
  __syncthreads();
  float v[kAccesses];
  long long t[kAccesses + 1];
  t[0] = stamp();
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) {
    v[i] = load_ca(buf + lane * 32 + (i % 4) * 8 + i / 4);
    t[i + 1] = stamp();
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) sum += v[i];
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    for (int i = 0; i < kAccesses; ++i) out[warp * kAccesses + i] = t[i + 1] - t[0];
  }
}

// 32 rows of 32 words; access i: lane l reads word i of row (l + i) % 32, every lane in bank i, 32
// wavefronts.
__global__ void probe_mio(float* sink, long long* out) {
  __shared__ float rows[32 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) rows[i] = static_cast<float>(i);
  __syncthreads();
  float v[kAccesses];
  long long t[kAccesses + 1];
  t[0] = stamp();
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) {
    v[i] = load_shared(rows + ((lane + i) % 32) * 32 + i);
    t[i + 1] = stamp();
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) sum += v[i];
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    for (int i = 0; i < kAccesses; ++i) out[warp * kAccesses + i] = t[i + 1] - t[0];
  }
}

}  // namespace

int main() {
  float* buf = nullptr;
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, 32 * 128));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kMaxWarps * kAccesses));
  TWIN_CHECK(cudaMemset(buf, 0, 32 * 128));
  static long long host[kMaxWarps * kAccesses];
  std::printf("path\twarps\twarp\taccess\tcycles\n");
  for (const char* path : {"lsu", "mio"}) {
    for (int warps : {1, 2, 4, 8, 16}) {
      for (int repeat = 0; repeat < 3; ++repeat) {  // the last of three runs is kept
        if (path[0] == 'l') {
          probe_lsu<<<1, warps * 32>>>(buf, sink, out);
        } else {
          probe_mio<<<1, warps * 32>>>(sink, out);
        }
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * warps * kAccesses,
                              cudaMemcpyDeviceToHost));
      }
      for (int w = 0; w < warps; ++w)
        for (int i = 0; i < kAccesses; ++i)
          std::printf("%s\t%d\t%d\t%d\t%lld\n", path, warps, w, i, host[w * kAccesses + i]);
    }
  }
  TWIN_CHECK(cudaFree(buf));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
