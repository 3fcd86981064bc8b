// Whether global memory traffic shares the SM's data array with shared memory, and in what turn.
// One CTA: warp 0 is the probe warp; warps 1..B are bank warps (B = 0, 3, 7, 15), each issuing 64
// shared loads (two batches of 32) whose 32 lanes read 32 rows of one bank (32 wavefronts each)
// back to back, which keeps the shared-memory data path busy for about 2048 x B cycles. After a
// barrier the probe warp waits 300 cycles (the bank warps' MIO queues fill) and then runs, stamping
// clock64 after each step:
//   - ldg_hit: a chase of 48 dependent global loads (ld.global.ca) that hit L1, each one line of
//     four sectors (one wavefront of data);
//   - ldg_miss: the same chase over 48 lines the kernel has not touched (L2 hits, each filling a
//     line of L1);
//   - lds: a chase of 48 dependent shared loads of one wavefront;
//   - stg: 48 independent coalesced global stores of one line each (the stamps show when each
//     could be queued; once the LSU queue is full, how fast stores leave it); step 49 is the
//     stamp after a membar.gl that waits for all of them;
//   - none: nothing (the bank warps' own time).
// A chase's hop time over its uncontended value is the wait for the data path; the bank warps'
// end times against `none` show whether the probe's traffic delayed them.
//
// Output (stdout, TSV): kind bank_warps role warp step cycles. role probe: cycles after the
// probe's first stamp (step 0) at each step; role bank: the bank warp's cycles from the barrier
// to its last load's result.
//
// Build: nvcc -O3 -arch=sm_90 -o data_array data_array.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kSteps = 48;
constexpr int kBankLoads = 64;
constexpr int kMaxWarps = 16;
constexpr int kLines = 32;  // the hit chase's ring: 32 lines of 32 words
constexpr int kRingWords = (kLines + kSteps + 1) * 32;  // the ring, then the miss chain

enum Kind { kNone, kLdgHit, kLdgMiss, kLds, kStg };

__device__ __forceinline__ int load_ca(const int* p) {
  int v;
  asm volatile("ld.global.ca.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_global(int* p, int v) {
  asm volatile("st.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// ring[line * 32 + lane] holds the next line's first word, the same for every lane of a line: each
// hop reads one whole line.
__device__ __forceinline__ int next_line(int line) { return ((line * 13 + 7) % kLines) * 32; }

template <int K>
__global__ void __launch_bounds__(512, 1)
    probe(const int* __restrict__ ring, int* stores, int* sink, long long* out) {
  __shared__ int rows[32 * 32];
  __shared__ int sring[kLines * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) {
    rows[i] = i;
    sring[i] = next_line(i / 32);
  }
  int warm = 0;
  if (K == kLdgHit && warp == 0) {  // brings the ring into L1
    for (int line = 0; line < kLines; ++line) warm += load_ca(ring + line * 32 + lane);
    if (warm == 0x7fffffff) *sink = warm;  // waits for the warm-up loads
  }
  __syncthreads();
  const long long start = stamp();
  if (warp > 0) {
    int sum = 0;
#pragma unroll
    for (int half = 0; half < 2; ++half) {  // two batches of 32 keep the registers under 128
      int v[kBankLoads / 2];
#pragma unroll
      for (int i = 0; i < kBankLoads / 2; ++i)
        v[i] = load_shared(rows + ((lane + i) % 32) * 32 + i);
#pragma unroll
      for (int i = 0; i < kBankLoads / 2; ++i) sum += v[i];
    }
    const long long end = stamp();
    if (sum == 0x7fffffff) *sink = sum;
    if (lane == 0) out[kMaxWarps * (kSteps + 1) + warp] = end - start;
    return;
  }
  while (stamp() - start < 300) {
  }
  long long t[kSteps + 1];
  long long fenced = 0;
  int p = 0;
  t[0] = stamp();
  if (K == kLdgHit) {
#pragma unroll
    for (int i = 0; i < kSteps; ++i) {
      p = load_ca(ring + p + lane);
      t[i + 1] = stamp();
    }
  } else if (K == kLdgMiss) {
    p = kLines * 32;
#pragma unroll
    for (int i = 0; i < kSteps; ++i) {
      p = load_ca(ring + p + lane);
      t[i + 1] = stamp();
    }
  } else if (K == kLds) {
#pragma unroll
    for (int i = 0; i < kSteps; ++i) {
      p = load_shared(sring + p + lane);
      t[i + 1] = stamp();
    }
  } else if (K == kStg) {
#pragma unroll
    for (int i = 0; i < kSteps; ++i) {
      store_global(stores + i * 32 + lane, i);
      t[i + 1] = stamp();
    }
    __threadfence();
    fenced = stamp();
  } else {
#pragma unroll
    for (int i = 0; i < kSteps; ++i) t[i + 1] = t[0];
  }
  if (p == 0x7fffffff) *sink = p;
  if (lane == 0) {
    for (int i = 0; i <= kSteps; ++i) out[i] = t[i] - t[0];
    out[kSteps + 1] = fenced > 0 ? fenced - t[0] : 0;
  }
}

}  // namespace

int main() {
  int* ring = nullptr;
  int* stores = nullptr;
  int* sink = nullptr;
  long long* out = nullptr;
  const size_t out_count = kMaxWarps * (kSteps + 1) + kMaxWarps;
  TWIN_CHECK(cudaMalloc(&ring, sizeof(int) * kRingWords));
  TWIN_CHECK(cudaMalloc(&stores, sizeof(int) * kSteps * 32));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(int)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * out_count));
  static int host_ring[kRingWords];
  for (int i = 0; i < kLines * 32; ++i) host_ring[i] = ((i / 32 * 13 + 7) % kLines) * 32;
  // The miss chain: line j leads to line j + 1.
  for (int i = kLines * 32; i < kRingWords; ++i) host_ring[i] = (i / 32 + 1) * 32;
  TWIN_CHECK(cudaMemcpy(ring, host_ring, sizeof host_ring, cudaMemcpyHostToDevice));
  static long long host[kMaxWarps * (kSteps + 1) + kMaxWarps];
  std::printf("kind\tbank_warps\trole\twarp\tstep\tcycles\n");
  const char* names[] = {"none", "ldg_hit", "ldg_miss", "lds", "stg"};
  for (int kind = kNone; kind <= kStg; ++kind) {
    for (int bank : {0, 3, 7, 15}) {
      for (int repeat = 0; repeat < 3; ++repeat) {  // the last of three runs is kept
        const dim3 block((bank + 1) * 32);
        switch (kind) {
          case kNone:
            probe<kNone><<<1, block>>>(ring, stores, sink, out);
            break;
          case kLdgHit:
            probe<kLdgHit><<<1, block>>>(ring, stores, sink, out);
            break;
          case kLdgMiss:
            probe<kLdgMiss><<<1, block>>>(ring, stores, sink, out);
            break;
          case kLds:
            probe<kLds><<<1, block>>>(ring, stores, sink, out);
            break;
          default:
            probe<kStg><<<1, block>>>(ring, stores, sink, out);
            break;
        }
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * out_count, cudaMemcpyDeviceToHost));
      }
      for (int i = 0; i <= kSteps + (kind == kStg ? 1 : 0); ++i)
        std::printf("%s\t%d\tprobe\t0\t%d\t%lld\n", names[kind], bank, i, host[i]);
      for (int w = 1; w <= bank; ++w)
        std::printf("%s\t%d\tbank\t%d\t-\t%lld\n", names[kind], bank, w,
                    host[kMaxWarps * (kSteps + 1) + w]);
    }
  }
  TWIN_CHECK(cudaFree(ring));
  TWIN_CHECK(cudaFree(stores));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
