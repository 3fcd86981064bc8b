// How fast the shared-memory data path serves conflicted loads, by the number of warps that issue
// them and how far apart. One CTA of W warps (W = 1, 2, 3, 4, 8, 16; warp w on sub-partition
// w % 4); after a barrier each warp issues 64 shared loads whose 32 lanes touch `ways` different
// rows of one bank (ways = 1, 2, 4, 8, 16, 32: that many wavefronts each), then waits for their
// results; `stamped` puts a clock64 read after each load, as lsu_queue.cu does. Which bank load i
// of warp w reads (`banks`): `drift` bank i % 32 (so warps that drift apart use different banks),
// `same` bank 0 for every load, `apart` bank (i + 8 w) % 32. Each warp reports the cycles from the
// barrier to its loads' results.
//
// Output (stdout, TSV): banks ways stamped warps warp cycles
//
// Build: nvcc -O3 -arch=sm_90 -o lds_rate lds_rate.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kLoads = 64;
constexpr int kMaxWarps = 16;

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ int load_shared(const int* p) {
  int v;
  asm volatile("ld.shared.s32 %0, [%1];"
               : "=r"(v)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p)))
               : "memory");
  return v;
}

// Load i: lane l reads word (i + shift) % 32 of row ((l % ways) + i) % 32: `ways` rows of one
// bank. shift: 0 (drift), -i (same), 8 w (apart).
enum Banks { kDrift, kSame, kApart };

template <bool Stamped>
__global__ void __launch_bounds__(512, 1) probe(int ways, int banks, int* sink, long long* out) {
  __shared__ int rows[32 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) rows[i] = i;
  __syncthreads();
  const int row = lane % ways;
  const int shift = banks == kApart ? 8 * (warp % 4) : 0;
  long long mark = 0;
  const long long start = stamp();
  int sum = 0;
#pragma unroll
  for (int half = 0; half < 2; ++half) {  // two batches of 32 keep the registers under 128
    int v[kLoads / 2];
#pragma unroll
    for (int i = 0; i < kLoads / 2; ++i) {
      const int word = banks == kSame ? 0 : (i + shift) % 32;
      v[i] = load_shared(rows + ((row + i) % 32) * 32 + word);
      if (Stamped) mark += stamp();
    }
#pragma unroll
    for (int i = 0; i < kLoads / 2; ++i) sum += v[i];
  }
  const long long end = stamp();
  if (sum + mark == 0x7fffffff) *sink = sum;
  if (lane == 0) out[warp] = end - start;
}

}  // namespace

int main() {
  int* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(int)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kMaxWarps));
  static long long host[kMaxWarps];
  std::printf("banks\tways\tstamped\twarps\twarp\tcycles\n");
  const char* names[] = {"drift", "same", "apart"};
  for (int banks : {kDrift, kSame, kApart}) {
    for (int ways : {1, 2, 4, 8, 16, 32}) {
      for (int stamped = 0; stamped < 2; ++stamped) {
        if (banks != kDrift && (stamped || ways == 2)) continue;
        for (int warps : {1, 2, 3, 4, 8, 16}) {
          for (int repeat = 0; repeat < 3; ++repeat) {  // the last of three runs is kept
            if (stamped) {
              probe<true><<<1, warps * 32>>>(ways, banks, sink, out);
            } else {
              probe<false><<<1, warps * 32>>>(ways, banks, sink, out);
            }
            TWIN_CHECK(cudaGetLastError());
            TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
          }
          for (int w = 0; w < warps; ++w)
            std::printf("%s\t%d\t%d\t%d\t%d\t%lld\n", names[banks], ways, stamped, warps, w,
                        host[w]);
        }
      }
    }
  }
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
