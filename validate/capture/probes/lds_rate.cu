// How fast the shared-memory data path serves conflicted loads, by the number of warps that issue
// them and how far apart. One CTA of W warps (W = 1, 2, 3, 4, 8, 16; warp w on sub-partition
// w % 4); after a barrier each warp issues 64 shared loads whose 32 lanes touch `ways` different
// rows of one bank (ways = 1, 2, 4, 8, 16, 32: that many wavefronts each), then waits for their
// results; `stamped` puts a clock64 read after each load, as lsu_queue.cu does. Which bank load i
// of warp w reads (`banks`): `drift` bank i % 32 (so warps that drift apart use different banks),
// `same` bank 0 for every load, `apart` bank (i + 8 w) % 32; `imm` reads word i % 32 of row
// l % ways through one base register and an immediate offset (probe_imm). Each warp reports the
// cycles from the barrier to its loads' results.
//
// What runs: the two batches read the same addresses, and ptxas keeps one of them, so each warp
// executes 32 loads (ncu with LDS_RATE_ONCE=1: 512 loads, 16384 wavefronts for 16 warps at 32
// ways); probe_imm's 32 words per lane become eight 16-byte loads. Divide the cycles by 32 loads
// (by 8 for imm).
//
// Last, lsu_queue.cu's own MIO kernel, with a stamp after its loads' results as well.
//
// Output (stdout, TSV): banks ways stamped warps warp cycles; then lines starting `# queue_twin`:
// warps warp step cycles (steps 0-23: the stamp after access i; 24: the loads' results)
//
// Build: nvcc -O3 -arch=sm_90 -o lds_rate lds_rate.cu
#include <cstdio>
#include <cstdlib>

#include "clock_probe.cuh"

namespace {

constexpr int kLoads = 64;
constexpr int kMaxWarps = 16;

// Load i: lane l reads word (i + shift) % 32 of row ((l % ways) + i) % 32: `ways` rows of one
// bank. shift: 0 (drift), -i (same), 8 w (apart).
enum Banks { kDrift, kSame, kApart, kImm };

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

// lsu_queue.cu's MIO kernel as it is (24 float loads of 32 ways, every stamp kept and written
// out), with a last stamp after the loads' results: the stamps of access i in out[w * 25 + i], the
// end in out[w * 25 + 24].
constexpr int kQueueAccesses = 24;

__global__ void queue_twin(float* sink, long long* out) {
  __shared__ float rows[32 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) rows[i] = static_cast<float>(i);
  __syncthreads();
  float v[kQueueAccesses];
  long long t[kQueueAccesses + 1];
  t[0] = stamp();
#pragma unroll
  for (int i = 0; i < kQueueAccesses; ++i) {
    float x;
    asm volatile(
        "ld.shared.f32 %0, [%1];"
        : "=f"(x)
        : "r"(static_cast<unsigned>(__cvta_generic_to_shared(rows + ((lane + i) % 32) * 32 + i))));
    v[i] = x;
    t[i + 1] = stamp();
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kQueueAccesses; ++i) sum += v[i];
  const long long end = stamp();
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    for (int i = 0; i < kQueueAccesses; ++i) out[warp * 25 + i] = t[i + 1] - t[0];
    out[warp * 25 + kQueueAccesses] = end - t[0];
  }
}

// The same loads with one base register per warp and the word as an immediate offset, as the
// transposes' column reads are compiled (LDS Rd, [Rb+imm]): load i reads word i % 32 of row
// l % ways.
template <bool Stamped>
__global__ void __launch_bounds__(512, 1) probe_imm(int ways, int* sink, long long* out) {
  __shared__ int rows[32 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) rows[i] = i;
  __syncthreads();
  const int* base = rows + (lane % ways) * 32;
  long long mark = 0;
  const long long start = stamp();
  int sum = 0;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    int v[kLoads / 2];
#pragma unroll
    for (int i = 0; i < kLoads / 2; ++i) {
      v[i] = load_shared(base + i);
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
  long long* out_queue = nullptr;
  TWIN_CHECK(cudaMalloc(&out_queue, sizeof(long long) * kMaxWarps * 25));
  static long long host[kMaxWarps];
  std::printf("banks\tways\tstamped\twarps\twarp\tcycles\n");
  const char* names[] = {"drift", "same", "apart", "imm"};
  // LDS_RATE_ONCE=1: each launch once, 16 warps, 1 and 32 ways (for a profiler's counters).
  const bool once = std::getenv("LDS_RATE_ONCE") != nullptr;
  for (int banks : {kDrift, kSame, kApart, kImm}) {
    for (int ways : {1, 2, 4, 8, 16, 32}) {
      for (int stamped = 0; stamped < 2; ++stamped) {
        if (banks != kDrift && (stamped || ways == 2)) continue;
        if (once && (stamped || (ways != 1 && ways != 32))) continue;
        for (int warps : {1, 2, 3, 4, 8, 16}) {
          if (once && warps != 16) continue;
          for (int repeat = once ? 2 : 0; repeat < 3; ++repeat) {  // the last of three is kept
            if (banks == kImm) {
              probe_imm<false><<<1, warps * 32>>>(ways, sink, out);
            } else if (stamped) {
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
  // lsu_queue.cu's kernel: per warp, its 24 stamps and the end (step 24).
  static long long queue_host[kMaxWarps * 25];
  std::printf("# queue_twin: warps warp step cycles\n");
  for (int warps : {1, 2, 4, 8, 16}) {
    if (once && warps != 16) continue;
    for (int repeat = once ? 2 : 0; repeat < 3; ++repeat) {
      queue_twin<<<1, warps * 32>>>(reinterpret_cast<float*>(sink), out_queue);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(queue_host, out_queue, sizeof(long long) * warps * 25,
                            cudaMemcpyDeviceToHost));
    }
    for (int w = 0; w < warps; ++w)
      for (int i = 0; i <= kQueueAccesses; ++i)
        std::printf("# queue_twin\t%d\t%d\t%d\t%lld\n", warps, w, i, queue_host[w * 25 + i]);
  }
  TWIN_CHECK(cudaFree(out_queue));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
