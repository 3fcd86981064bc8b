// Probe of what sets how many partly written lines the naive transpose's stores give up: the
// twin's kernel (workloads/cuda/transpose.cu, w_transpose_naive) with the row pitch apart from
// the matrix size, so that the stores' address stride (pitch x 4 bytes between a warp's 32
// lines) and the number of lines written move separately. Per launch (n, pitch): an n x n
// transpose whose rows lie pitch floats apart in both matrices. The twin's 2048 and 4096 points
// are (2048, 2048) and (4096, 4096); rows, when not 0, launches only that many block rows (of 32
// input rows each). Profile each launch from an empty L2 (ncu --cache-control
// all, as the capture) with one-pass DRAM metrics:
//   transpose_pitch.sh > validate/reference/h200/transpose_rows.tsv
// `transpose_pitch list` prints one line per launch, in launch order (n, pitch, rows).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;
struct Launch {
  int n;
  int pitch;
  int rows;  // block rows of the grid (32 rows of the input each); 0: all n / 32
};
// The last four run the 4096 transpose's first 16-96 block rows: as many stores a line and lines
// in flight as the whole, an eighth to three quarters of its output (8.4-50.3 MB).
constexpr Launch kLaunches[] = {{2048, 2048, 0},        {2048, 4096, 0}, {2048, 2080, 0},
                                {3072, 3072, 0},        {4096, 4096, 0}, {4096, 4128, 0},
                                {4096, 2048 + 4096, 0}, {2048, 8192, 0}, {4096, 4096, 16},
                                {4096, 4096, 32},       {4096, 4096, 64}, {4096, 4096, 96}};

// The twin's w_transpose_naive with the pitch as its own argument.
__global__ void probe_transpose(const float* __restrict__ in, float* __restrict__ out, int pitch) {
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[x * pitch + (y + j)] = in[(y + j) * pitch + x];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("n\tpitch\trows\n");
    for (const Launch& l : kLaunches) std::printf("%d\t%d\t%d\n", l.n, l.pitch, l.rows);
    return 0;
  }
  for (const Launch& l : kLaunches) {
    const size_t bytes = (size_t)l.pitch * l.n * sizeof(float);
    float* in = nullptr;
    float* out = nullptr;
    TWIN_CHECK(cudaMalloc(&in, bytes));
    TWIN_CHECK(cudaMalloc(&out, bytes));
    TWIN_CHECK(cudaMemset(in, 0, bytes));
    TWIN_CHECK(cudaMemset(out, 0xFF, bytes));  // as the twin's poisoned output
    TWIN_CHECK(cudaDeviceSynchronize());
    const int rows = l.rows == 0 ? l.n / kTile : l.rows;
    probe_transpose<<<dim3(l.n / kTile, rows), dim3(kTile, kRows)>>>(in, out, l.pitch);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
    TWIN_CHECK(cudaFree(in));
    TWIN_CHECK(cudaFree(out));
  }
  return 0;
}
