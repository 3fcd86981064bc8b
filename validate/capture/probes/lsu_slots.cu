// What a slot of the queue in front of the L1 tag stage holds: an instruction, or the lines it
// touches. lsu_queue.cu measured the queue with loads of 32 lines each (refused after about 16 per
// sub-partition); this probe repeats it with loads of 1, 2, 4, 8, 16 and 32 lines, so that a queue
// of instructions refuses a warp after the same count at every width and a queue of lines after
// proportionally more narrow loads. One CTA of W warps (warp w on sub-partition w % 4) issues 64
// independent L1-resident loads back to back (ld.global.ca, lane l reading line l * L / 32 of the
// load's L lines), each followed by a clock64 stamp. A second kernel times the write-after-read
// wait on a store's address register: each lane stores to p, adds 128 bytes to p, stores again,
// 64 times, with a stamp after each add; with the L1 tag stage kept busy by the other warps' loads,
// an add that must wait until the LSU has read p shows in the stamps. ptxas may give each add its
// own register, and then there is nothing to wait for: check in the SASS (lsu_slots.sh SASS_FILE)
// that the IADD writes the register pair the STG before it reads.
//
// As compiled for sm_90 (validate/reference/h200/lsu_slots_sass.txt), ptxas merged loads i and
// i + 32, which read the same words, so each warp issues 32 loads and its last 32 stamps follow no
// load (lsu_slots_summary.py reads the first 32); and it folded the store kernel's adds into the
// stores' immediate offsets, so that kernel times 64 stores queued behind the other warps' loads,
// not a write-after-read wait.
//
// Up to 12 warps: the stamps take about 136 registers a thread.
//
// Output (stdout, TSV): kernel lines warps warp access cycles (clock64 after the access's issue,
// from the warp's stamp before the first).
//
// Build: nvcc -O3 -arch=sm_90 -o lsu_slots lsu_slots.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kAccesses = 64;
constexpr int kMaxWarps = 32;
constexpr int kLines = 32;  // the warmed buffer: 32 lines of 128 bytes

// Keeps the loads (their sum goes nowhere) and writes lane 0's stamps, each from the first.
__device__ __forceinline__ void keep(const float* v, const long long* t, float* sink,
                                     long long* out, int lane) {
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) sum += v[i];
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    for (int i = 0; i < kAccesses; ++i) out[i] = t[i + 1] - t[0];
  }
}

// Load i of a warp touches `lines` lines: lane l reads line (l * lines / 32), a word that differs
// from load to load (ptxas merges loads of one address).
template <int kLinesPerLoad>
__global__ void probe_loads(const float* __restrict__ buf, float* sink, long long* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  float acc = 0;
  for (int i = 0; i < 32; ++i) acc += load_ca(buf + lane * 32 + i);  // warm the 32 lines
  if (acc == 1234.5f) *sink = acc;
  __syncthreads();
  const int line = lane * kLinesPerLoad / 32;
  float v[kAccesses];
  long long t[kAccesses + 1];
  t[0] = stamp();
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) {
    v[i] = load_ca(buf + line * 32 + (i % 32));
    t[i + 1] = stamp();
  }
  keep(v, t, sink, out + warp * kAccesses, lane);
}

// Warp 0 stores and moves its address; the other warps keep the tag stage busy with 32-line loads.
__global__ void probe_store_address(const float* __restrict__ buf, float* dst, float* sink,
                                    long long* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  float acc = 0;
  for (int i = 0; i < 32; ++i) acc += load_ca(buf + lane * 32 + i);
  if (acc == 1234.5f) *sink = acc;
  __syncthreads();
  if (warp == 0) {
    float* p = dst + lane;
    long long t[kAccesses + 1];
    t[0] = stamp();
#pragma unroll
    for (int i = 0; i < kAccesses; ++i) {
      asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(acc) : "memory");
      asm volatile("add.u64 %0, %0, 128;" : "+l"(p));
      t[i + 1] = stamp();
    }
    if (lane == 0) {
      for (int i = 0; i < kAccesses; ++i) out[i] = t[i + 1] - t[0];
    }
  } else {
    float v = 0;
#pragma unroll 8
    for (int i = 0; i < kAccesses; ++i) v += load_ca(buf + lane * 32 + (i % 32));
    if (v == 1234.5f) *sink = v;
  }
}

template <int kLinesPerLoad>
void run_loads(const float* buf, float* sink, long long* out, long long* host) {
  for (int warps : {1, 4, 8, 12}) {
    for (int repeat = 0; repeat < 3; ++repeat) {  // the last of three runs is kept
      probe_loads<kLinesPerLoad><<<1, warps * 32>>>(buf, sink, out);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * warps * kAccesses,
                            cudaMemcpyDeviceToHost));
    }
    for (int w = 0; w < warps; ++w)
      for (int i = 0; i < kAccesses; ++i)
        std::printf("loads\t%d\t%d\t%d\t%d\t%lld\n", kLinesPerLoad, warps, w, i,
                    host[w * kAccesses + i]);
  }
}

}  // namespace

int main() {
  float* buf = nullptr;
  float* dst = nullptr;
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, kLines * 128));
  TWIN_CHECK(cudaMalloc(&dst, 128 * (kAccesses + 1)));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kMaxWarps * kAccesses));
  TWIN_CHECK(cudaMemset(buf, 0, kLines * 128));
  static long long host[kMaxWarps * kAccesses];
  std::printf("kernel\tlines\twarps\twarp\taccess\tcycles\n");
  run_loads<1>(buf, sink, out, host);
  run_loads<2>(buf, sink, out, host);
  run_loads<4>(buf, sink, out, host);
  run_loads<8>(buf, sink, out, host);
  run_loads<16>(buf, sink, out, host);
  run_loads<32>(buf, sink, out, host);
  for (int warps : {1, 4, 8, 12}) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      probe_store_address<<<1, warps * 32>>>(buf, dst, sink, out);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * kAccesses, cudaMemcpyDeviceToHost));
    }
    for (int i = 0; i < kAccesses; ++i)
      std::printf("store_address\t1\t%d\t0\t%d\t%lld\n", warps, i, host[i]);
  }
  TWIN_CHECK(cudaFree(buf));
  TWIN_CHECK(cudaFree(dst));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
