// Probe of where a row-wise kernel's extra DRAM reads arise: the softmax / layernorm twins'
// access pattern (workloads/cuda/rowwise.cu: one CTA of 256 threads per row of 8192 floats,
// 1024 rows, each thread striding over its row, a barrier between passes) without their
// arithmetic, cut into its passes. Each variant runs after the settle of l2_sequences.cuh (the L2
// full of clean lines no variant touches); profile with one-pass DRAM metrics and no cache
// control (rows_passes.sh). A variant names its passes in order: R reads the row, W writes the
// output row, X reads the row and writes the output (the twins' last pass). Its DRAM reads beyond
// the input's 33.55 MB are the input lines that were evicted before a later pass re-read them:
//   R, RR, RRR      reads alone: what re-reading 32 MB in three passes loses
//   X, RX, RRX      the last pass writes: RRX is the twins' pattern
//   RW              a read pass, then a write pass (no third read)
// `rows_passes list` prints one line per profiled launch (sequence, kernel, MB).
#include "rows_passes.cuh"

namespace {

using namespace l2seq;

// `passes` is the variant's name: one letter per pass.
__global__ void probe_rows(const float* __restrict__ in, float* __restrict__ out, const char* passes,
                           int n_passes, float* sink) {
  const size_t base = static_cast<size_t>(blockIdx.x) * rows::kCols;
  float acc = 0.0f;
  for (int p = 0; p < n_passes; ++p) {
    rows::pass(in, out, base, passes[p], acc);
    __syncthreads();
  }
  if (acc == 12345.0f) *sink = acc;
}

const std::vector<const char*> kVariants = {"R", "RR", "RRR", "X", "RX", "RRX", "RW"};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Sequence> seqs = rows::sequences(kVariants);
  if (list_requested(argc, argv, seqs, "")) return 0;
  const rows::Buffers b = rows::allocate(kVariants);
  size_t next = 0;
  run_sequences(seqs, [&](const Step&, size_t, float* sink) {
    const int v = static_cast<int>(next++);
    probe_rows<<<rows::kRows, rows::kBlock>>>(b.in, b.out, b.names + 8 * v,
                                              static_cast<int>(std::strlen(kVariants[v])), sink);
  });
  return 0;
}
