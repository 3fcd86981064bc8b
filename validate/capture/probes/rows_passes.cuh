// What the row-wise passes probes (rows_passes.cu, rows_passes_ctas.cu) share: the twins' row
// shape (1024 rows of 8192 floats, one CTA of 256 threads per row), one pass over a CTA's row, and
// the host side that names the variants' sequences and puts the buffers and the variants' names
// on the device.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "l2_sequences.cuh"

namespace rows {

constexpr int kRows = 1024, kCols = 8192, kBlock = 256;

/// One pass of kind R (read the row), W (write the output row) or X (read and write) over the row
/// starting at `base`, each thread striding over it; the reads are summed into `acc`.
__device__ __forceinline__ void pass(const float* __restrict__ in, float* __restrict__ out,
                                     size_t base, char kind, float& acc) {
  for (int c = threadIdx.x; c < kCols; c += kBlock) {
    if (kind == 'W') {
      out[base + c] = acc + static_cast<float>(c);
    } else {
      const float v = in[base + c];
      acc += v;
      if (kind == 'X') out[base + c] = v * 0.5f;
    }
  }
}

/// The input and output rows, and the variants' names (8 bytes each) on the device.
struct Buffers {
  const float* in = nullptr;
  float* out = nullptr;
  const char* names = nullptr;
};

/// One sequence per variant ("rows/<variant>", a single 32 MB step).
inline std::vector<l2seq::Sequence> sequences(const std::vector<const char*>& variants) {
  std::vector<l2seq::Sequence> seqs;
  for (const char* v : variants) seqs.push_back({std::string("rows/") + v, {{"rows", 32}}});
  return seqs;
}

/// Zeroed input and output rows, and the variants' names copied to the device.
inline Buffers allocate(const std::vector<const char*>& variants) {
  const size_t bytes = static_cast<size_t>(kRows) * kCols * sizeof(float);
  Buffers b;
  b.in = reinterpret_cast<const float*>(l2seq::zeroed(bytes));
  b.out = reinterpret_cast<float*>(l2seq::zeroed(bytes));
  char* names = nullptr;
  TWIN_CHECK(cudaMalloc(&names, 8 * variants.size()));
  for (size_t i = 0; i < variants.size(); ++i) {
    TWIN_CHECK(cudaMemcpy(names + 8 * i, variants[i], std::strlen(variants[i]) + 1,
                          cudaMemcpyHostToDevice));
  }
  b.names = names;
  return b;
}

}  // namespace rows
