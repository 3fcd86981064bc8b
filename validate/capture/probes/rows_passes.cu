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
#include "l2_sequences.cuh"

namespace {

using namespace l2seq;

constexpr int kRows = 1024, kCols = 8192, kBlock = 256;

// `passes` is the variant's name: one letter per pass.
__global__ void probe_rows(const float* __restrict__ in, float* __restrict__ out, const char* passes,
                           int n_passes, float* sink) {
  const size_t base = static_cast<size_t>(blockIdx.x) * kCols;
  float acc = 0.0f;
  for (int p = 0; p < n_passes; ++p) {
    const char kind = passes[p];
    for (int c = threadIdx.x; c < kCols; c += kBlock) {
      if (kind == 'W') {
        out[base + c] = acc + static_cast<float>(c);
      } else {
        const float v = in[base + c];
        acc += v;
        if (kind == 'X') out[base + c] = v * 0.5f;
      }
    }
    __syncthreads();
  }
  if (acc == 12345.0f) *sink = acc;
}

const char* kVariants[] = {"R", "RR", "RRR", "X", "RX", "RRX", "RW"};

}  // namespace

int main(int argc, char** argv) {
  std::vector<Sequence> seqs;
  for (const char* v : kVariants) seqs.push_back({std::string("rows/") + v, {{"rows", 32}}});
  if (list_requested(argc, argv, seqs, "")) return 0;
  const size_t bytes = static_cast<size_t>(kRows) * kCols * sizeof(float);
  float4* in = zeroed(bytes);
  float4* out = zeroed(bytes);
  char* names = nullptr;
  TWIN_CHECK(cudaMalloc(&names, 8 * 8));
  for (int i = 0; i < 7; ++i) {
    TWIN_CHECK(cudaMemcpy(names + 8 * i, kVariants[i], std::strlen(kVariants[i]) + 1,
                          cudaMemcpyHostToDevice));
  }
  size_t next = 0;
  run_sequences(seqs, [&](const Step&, size_t, float* sink) {
    const int v = static_cast<int>(next++);
    probe_rows<<<kRows, kBlock>>>(reinterpret_cast<const float*>(in),
                                  reinterpret_cast<float*>(out), names + 8 * v,
                                  static_cast<int>(std::strlen(kVariants[v])), sink);
  });
  return 0;
}
