// Which L2 partition each SM sits next to, and where the GPU places a small grid's CTAs.
//
// Partitions: a line's L2 hit takes ~276 SM cycles from an SM next to its home partition and ~427
// from one next to the other (h200.textproto), and a far read leaves a copy in the reader's
// partition. `touch` (one warp, on whatever SM the GPU picks: the reference SM) reads every line of
// a buffer once, so each line is in the L2 at its home and, when its home is far from the
// reference, as a copy in the reference's partition; it then times a second read of every line.
// `probe` then runs one CTA on every SM (dynamic shared memory keeps it to one per SM), each
// timing a chase through its own 64 lines (ld.global.cg, so the L1 keeps nothing). An SM of the
// reference's partition finds every line near (home or copy); an SM of the other partition finds
// near exactly the lines whose home the reference found far. Each SM reads only its own lines, so
// no SM's copies reach another's reads.
//
// Placement: `place` runs grids of 128-thread CTAs (64, 66, 67, 80, 100, 128, 131, 132 and 264
// CTAs with the flash_attention twin's 18 KB of shared memory, 132 with 120 KB so one fits an SM,
// 1056 with 24 KB)
// that stay resident 20 us, and reports each CTA's SM and start (globaltimer, ns after the first).
//
// Output (stdout, TSV): three kinds of rows,
//   ref  run sm line latency          (touch's second read of each line)
//   sm   run cta sm line latency      (probe's read of each of its lines)
//   placeN_Sk run cta sm 0 start_ns  (the placement of N CTAs with S KB of shared memory each)
//
// Build: nvcc -O3 -arch=sm_90 -o sm_partition sm_partition.cu
#include <cstdio>
#include <vector>

#include "clock_probe.cuh"

namespace {

constexpr int kPerSm = 64;        // lines each SM chases
constexpr int kLineWords = 32;    // 128-byte lines of 32-bit words
constexpr int kRuns = 3;

__device__ __forceinline__ unsigned load_cg(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Follows the chain buf[i * 32] = i + 1 from line `first` for `count` lines, one load in flight;
// stamps[k] is taken right after load k issues, so stamps[k + 1] - stamps[k] is load k's latency.
// Returns the last line reached.
__device__ unsigned chase(const unsigned* buf, unsigned first, int count, long long* stamps) {
  unsigned line = first;
#pragma unroll 1
  for (int k = 0; k <= count; ++k) {
    line = load_cg(buf + static_cast<size_t>(line) * kLineWords);
    stamps[k] = stamp();
  }
  return line;
}

__global__ void touch(const unsigned* buf, int lines, unsigned* sink, unsigned* ref_sm,
                      long long* stamps) {
  if (threadIdx.x != 0) return;
  unsigned sum = 0;
#pragma unroll 8
  for (int i = 0; i < lines; ++i) sum += load_cg(buf + static_cast<size_t>(i) * kLineWords);
  if (sum == 1u) *sink = sum;
  *ref_sm = sm_id();
  const unsigned last = chase(buf, 0, lines - 1, stamps);
  if (last == 0u) *sink = last;
}

__global__ void probe(const unsigned* buf, unsigned* sink, unsigned* sms, long long* stamps) {
  extern __shared__ unsigned hold[];  // one CTA per SM
  if (threadIdx.x != 0) return;
  hold[0] = 0;
  const int cta = blockIdx.x;
  sms[cta] = sm_id();
  const unsigned last =
      chase(buf, static_cast<unsigned>(cta * kPerSm), kPerSm, stamps + cta * (kPerSm + 1));
  if (last == 0u) *sink = last + hold[0];
}

// Each CTA reports its SM and its start (globaltimer), then stays resident `hold_ns`, so a grid
// that fits the GPU is placed whole before any CTA leaves.
__global__ void __launch_bounds__(128, 1) place(unsigned* sms, unsigned long long* start,
                                               unsigned long long hold_ns) {
  extern __shared__ unsigned tile[];
  const unsigned long long t0 = global_ns();
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned cta = blockIdx.y * gridDim.x + blockIdx.x;
    sms[cta] = sm_id() + tile[0];
    start[cta] = t0;
    while (global_ns() - t0 < hold_ns) {
    }
  }
}

}  // namespace

int main() {
  int sms = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int smem_optin = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  const int hold = smem_optin;  // more than half an SM's shared memory: one CTA per SM
  TWIN_CHECK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, hold));

  const int lines = sms * kPerSm;
  std::vector<unsigned> host(static_cast<size_t>(lines) * kLineWords, 0);
  for (int i = 0; i < lines; ++i) host[static_cast<size_t>(i) * kLineWords] = i + 1;
  unsigned *buf = nullptr, *sink = nullptr, *ref_sm = nullptr, *probe_sms = nullptr;
  long long *ref_stamps = nullptr, *sm_stamps = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, host.size() * sizeof(unsigned)));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  TWIN_CHECK(cudaMalloc(&ref_sm, sizeof(unsigned)));
  TWIN_CHECK(cudaMalloc(&probe_sms, sms * sizeof(unsigned)));
  TWIN_CHECK(cudaMalloc(&ref_stamps, (lines + 1) * sizeof(long long)));
  TWIN_CHECK(cudaMalloc(&sm_stamps, sms * (kPerSm + 1) * sizeof(long long)));
  // A buffer twice the L2 flushes it between runs.
  int l2_bytes = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0));
  unsigned* flush = nullptr;
  TWIN_CHECK(cudaMalloc(&flush, 2 * static_cast<size_t>(l2_bytes)));

  std::printf("kind\trun\tcta\tsm\tline\tlatency\n");
  for (int run = 0; run < kRuns; ++run) {
    TWIN_CHECK(cudaMemcpy(buf, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    TWIN_CHECK(cudaMemset(flush, run, 2 * static_cast<size_t>(l2_bytes)));
    TWIN_CHECK(cudaDeviceSynchronize());
    touch<<<1, 32>>>(buf, lines, sink, ref_sm, ref_stamps);
    TWIN_CHECK(cudaGetLastError());
    probe<<<sms, 32, hold>>>(buf, sink, probe_sms, sm_stamps);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
    unsigned ref = 0;
    std::vector<long long> rs(lines + 1), ss(static_cast<size_t>(sms) * (kPerSm + 1));
    std::vector<unsigned> psm(sms);
    TWIN_CHECK(cudaMemcpy(&ref, ref_sm, sizeof ref, cudaMemcpyDeviceToHost));
    TWIN_CHECK(cudaMemcpy(rs.data(), ref_stamps, rs.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    TWIN_CHECK(cudaMemcpy(ss.data(), sm_stamps, ss.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    TWIN_CHECK(cudaMemcpy(psm.data(), probe_sms, psm.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < lines; ++i)
      std::printf("ref\t%d\t0\t%u\t%d\t%lld\n", run, ref, i, rs[i + 1] - rs[i]);
    for (int c = 0; c < sms; ++c)
      for (int k = 0; k < kPerSm; ++k) {
        const size_t at = static_cast<size_t>(c) * (kPerSm + 1) + k;
        std::printf("sm\t%d\t%d\t%u\t%d\t%lld\n", run, c, psm[c], c * kPerSm + k, ss[at + 1] - ss[at]);
      }
  }
  // Placements: (CTAs, dynamic shared memory per CTA). 18 KB as the flash_attention twin's
  // tiles; 120 KB allows one CTA per SM, 24 KB nine.
  struct Shape {
    int ctas;
    int smem;
  };
  const Shape shapes[] = {{64, 18 << 10},   {66, 18 << 10},   {67, 18 << 10},  {80, 18 << 10},
                          {100, 18 << 10},  {128, 18 << 10},  {131, 18 << 10}, {132, 18 << 10},
                          {264, 18 << 10},  {132, 120 << 10}, {1056, 24 << 10}};
  TWIN_CHECK(cudaFuncSetAttribute(place, cudaFuncAttributeMaxDynamicSharedMemorySize, 120 << 10));
  unsigned* place_sms = nullptr;
  unsigned long long* place_start = nullptr;
  TWIN_CHECK(cudaMalloc(&place_sms, 1056 * sizeof(unsigned)));
  TWIN_CHECK(cudaMalloc(&place_start, 1056 * sizeof(unsigned long long)));
  for (const Shape& shape : shapes) {
    for (int run = 0; run < kRuns; ++run) {
      place<<<shape.ctas, 128, shape.smem>>>(place_sms, place_start, 20000);
      TWIN_CHECK(cudaGetLastError());
      std::vector<unsigned> p(shape.ctas);
      std::vector<unsigned long long> t(shape.ctas);
      TWIN_CHECK(cudaMemcpy(p.data(), place_sms, p.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
      TWIN_CHECK(cudaMemcpy(t.data(), place_start, t.size() * sizeof(unsigned long long),
                            cudaMemcpyDeviceToHost));
      unsigned long long first = t[0];
      for (unsigned long long v : t) first = v < first ? v : first;
      for (int c = 0; c < shape.ctas; ++c)
        std::printf("place%d_%dk\t%d\t%d\t%u\t0\t%llu\n", shape.ctas, shape.smem >> 10, run, c,
                    p[c], t[c] - first);
    }
  }
  return 0;
}
