// When the CTAs of the row-wise passes probe (rows_passes.cu) run their passes on the H200: the
// same kernel with thread 0 stamping %globaltimer after each pass's barrier, and each CTA's SM.
// rows_passes_l1.tsv shows the H200's L1 serving 72 % of R R's second pass where the model's
// serves 61 %, and the L1's tags alone, with an SM's CTAs in lockstep, keep 54 %: how far apart an
// SM's CTAs run their passes sets how much of 8 rows of 32 KB its 224 KB L1 keeps. Each variant
// runs after the settle of l2_sequences.cuh, as in rows_passes.cu, without a profiler.
// Output (TSV): variant cta sm pass_end_ns... (one column per pass, less the launch's earliest
// start), after a header.
//   nvcc -O3 -std=c++17 -arch=native rows_passes_ctas.cu && ./a.out run > rows_passes_ctas.tsv
#include <algorithm>
#include <vector>

#include "clock_probe.cuh"  // global_ns, sm_id
#include "rows_passes.cuh"

namespace {

using namespace l2seq;

using rows::kRows;
constexpr int kMaxPasses = 3;

__device__ unsigned long long g_stamp[kRows * (kMaxPasses + 1)];
__device__ unsigned int g_sm[kRows];

__global__ void probe_rows(const float* __restrict__ in, float* __restrict__ out, const char* passes,
                           int n_passes, float* sink) {
  const size_t base = static_cast<size_t>(blockIdx.x) * rows::kCols;
  if (threadIdx.x == 0) {
    g_stamp[blockIdx.x * (kMaxPasses + 1)] = global_ns();
    g_sm[blockIdx.x] = sm_id();
  }
  float acc = 0.0f;
  for (int p = 0; p < n_passes; ++p) {
    rows::pass(in, out, base, passes[p], acc);
    __syncthreads();
    if (threadIdx.x == 0) g_stamp[blockIdx.x * (kMaxPasses + 1) + p + 1] = global_ns();
  }
  if (acc == 12345.0f) *sink = acc;
}

const std::vector<const char*> kVariants = {"RR", "RRR", "RX", "RRX"};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Sequence> seqs = rows::sequences(kVariants);
  if (list_requested(argc, argv, seqs, "")) return 0;
  const rows::Buffers b = rows::allocate(kVariants);
  std::printf("variant\tcta\tsm\tstart_ns\tpass1_ns\tpass2_ns\tpass3_ns\n");
  size_t next = 0;
  run_sequences(seqs, [&](const Step&, size_t, float* sink) {
    const int v = static_cast<int>(next++);
    const int n = static_cast<int>(std::strlen(kVariants[v]));
    probe_rows<<<kRows, rows::kBlock>>>(b.in, b.out, b.names + 8 * v, n, sink);
    TWIN_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned long long> stamp(kRows * (kMaxPasses + 1));
    std::vector<unsigned int> sm(kRows);
    TWIN_CHECK(cudaMemcpyFromSymbol(stamp.data(), g_stamp, stamp.size() * sizeof(stamp[0])));
    TWIN_CHECK(cudaMemcpyFromSymbol(sm.data(), g_sm, sm.size() * sizeof(sm[0])));
    unsigned long long first = ~0ull;
    for (int c = 0; c < kRows; ++c) first = std::min(first, stamp[c * (kMaxPasses + 1)]);
    for (int c = 0; c < kRows; ++c) {
      std::printf("%s\t%d\t%u", kVariants[v], c, sm[c]);
      for (int p = 0; p <= kMaxPasses; ++p) {
        const unsigned long long t = stamp[c * (kMaxPasses + 1) + p];
        if (p <= n) std::printf("\t%llu", t - first); else std::printf("\t");
      }
      std::printf("\n");
    }
  });
  return 0;
}
