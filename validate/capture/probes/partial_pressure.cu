// Probe of what makes the L2 give up more of its partly written lines when it is full: the naive
// transpose twin's kernel (workloads/cuda/transpose.cu: every 4-byte store writes one sector of
// a different line, each line completed by 32 stores from the 8 warps of one CTA) at n = 2048,
// whose 16 MB output fits the L2, run after the L2 was left in one of these states:
//   clean     - 256 MB of another buffer read (the L2 full of clean lines, least recently used);
//   dirty P   - the same, then P MB of a third buffer written whole (P up to 48 MB: dirty lines,
//               beyond the dirty limit from about 28 MB, so the transpose's stores make the L2
//               write back while it runs);
//   read P    - the same, then P MB of the third buffer read (recent clean lines);
//   keep      - no flush: the L2 as the previous launch left it.
// and, after `clean`, the same transpose at n = 4096, at n = 3072, at 2048 with its output rows
// 4096 or 8192 floats apart (pitch), and at 2048 and 4096 with the CTAs launched column-major
// (order 1: blockIdx.x walks the output's columns, so the lines in flight at once are a few rows'
// worth rather than a few columns of every row), and rectangular ones (the output's rows and
// columns apart) that keep the 4096 transpose's lines in flight over fewer CTAs or put 4 to 33
// lines of each row in flight. The 4096 transpose is also run as its four quarters (the output's
// columns from col0 on, as the whole launch's CTAs take them in order) back to back with the L2
// kept, and the later quarters alone after a flush, so that whether the give-up share grows with
// what the earlier quarters left in the L2 or with the addresses shows; likewise the 2048 one's
// halves, a quarter written twice (its lines then in the L2) and the last quarter after the
// dirty and read states; and the 2048 and 4096 transposes with each CTA's warps synchronized
// between their loads and stores (sync: if the share then falls, and more at 4096, the time a
// line stays partial sets it). On the H200 the transpose from an empty L2
// gives up about 15.7 k lines at 2048 and 102.8 k at 4096 (lts__t_requests_op_write_evict_first,
// validate/reference/h200/l2_counters.tsv); a record of a fixed size would give up the same share
// at both. If the count at 2048 rises with the dirty lines, write-back traffic takes the record's
// room; if it rises with any full L2, capacity does; if neither, the larger transpose's own shape.
// Profile with application replay, so every pass sees the same L2 state:
//   partial_pressure.sh > validate/reference/h200/partial_pressure_<gpu>.tsv
// `partial_pressure list` prints one line per profiled launch, in launch order (state, MB, the
// output's rows and columns, pitch, order, the first column, sync, repeat).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr size_t kMB = size_t{1} << 20;
constexpr int kTile = 32;
constexpr int kRows = 8;
constexpr size_t kFlushBytes = 256 * kMB;
constexpr int kRepeats = 2;

struct Launch {
  const char* state;
  int mb;
  int rows;   // the output's rows (the input's columns)
  int cols;   // the output's columns (the input's rows)
  int pitch;  // floats between the output's rows
  int order;  // 0: blockIdx.x walks the output's rows (the twin); 1: its columns
  int col0;   // the output's first column written
  int sync;   // 1: a CTA's warps wait for each other between their loads and their stores
  int copy_below;  // CTAs whose columns lie below this write whole lines (rows, not columns)
};
constexpr Launch kLaunches[] = {
    {"clean", 0, 2048, 2048, 2048, 0, 0}, {"dirty", 16, 2048, 2048, 2048, 0, 0},
    {"dirty", 32, 2048, 2048, 2048, 0, 0}, {"dirty", 40, 2048, 2048, 2048, 0, 0},
    {"dirty", 48, 2048, 2048, 2048, 0, 0}, {"read", 32, 2048, 2048, 2048, 0, 0},
    {"read", 48, 2048, 2048, 2048, 0, 0},  {"clean", 0, 4096, 4096, 4096, 0, 0},
    {"clean", 0, 3072, 3072, 3072, 0, 0},  {"clean", 0, 2048, 2048, 4096, 0, 0},
    {"clean", 0, 2048, 2048, 8192, 0, 0},  {"clean", 0, 2048, 2048, 2048, 1, 0},
    {"clean", 0, 4096, 4096, 4096, 1, 0},
    // The 4096 transpose's lines in flight (8 of each of 4096 rows) over a quarter and a half of
    // its columns, and 4, 8 and 33 lines of each of 8192, 4096 and 1024 rows 8192 floats apart.
    {"clean", 0, 4096, 1024, 4096, 0, 0},  {"clean", 0, 4096, 2048, 4096, 0, 0},
    {"clean", 0, 8192, 512, 8192, 0, 0},   {"clean", 0, 4096, 1024, 8192, 0, 0},
    {"clean", 0, 1024, 4096, 8192, 0, 0},
    // The 4096 transpose's quarters back to back, then its later quarters after a flush; a
    // quarter written twice; the 2048 transpose's halves.
    {"clean", 0, 4096, 1024, 4096, 0, 0},  {"keep", 0, 4096, 1024, 4096, 0, 1024},
    {"keep", 0, 4096, 1024, 4096, 0, 2048}, {"keep", 0, 4096, 1024, 4096, 0, 3072},
    {"clean", 0, 4096, 1024, 4096, 0, 1024}, {"clean", 0, 4096, 1024, 4096, 0, 3072},
    {"keep", 0, 4096, 1024, 4096, 0, 3072}, {"clean", 0, 2048, 1024, 2048, 0, 0},
    {"keep", 0, 2048, 1024, 2048, 0, 1024}, {"dirty", 48, 4096, 1024, 4096, 0, 3072},
    {"read", 48, 4096, 1024, 4096, 0, 3072},
    // The 2048 and 4096 transposes with a barrier between each CTA's loads and stores: its 32
    // lines are then completed within a few hundred cycles of each other, not over the spread of
    // its warps' load latencies.
    {"clean", 0, 2048, 2048, 2048, 0, 0, 1}, {"clean", 0, 4096, 4096, 4096, 0, 0, 1},
    // The 4096 transpose with its first three quarters, its first quarter or all of it written
    // as whole lines (each warp's store one row's line: nothing partial), in one launch; and the
    // first three quarters so written, then the last quarter transposed in a launch of its own.
    // Whether the last quarter gives up as many lines after whole lines in the same launch as
    // after partial ones (the whole transpose) or as after a launch boundary tells what the
    // share's growth within a launch follows: the L2's and DRAM's state, or the partial lines.
    {"clean", 0, 4096, 4096, 4096, 0, 0, 0, 3072}, {"clean", 0, 4096, 4096, 4096, 0, 0, 0, 1024},
    {"clean", 0, 4096, 4096, 4096, 0, 0, 0, 4096}, {"clean", 0, 4096, 3072, 4096, 0, 0, 0, 3072},
    {"keep", 0, 4096, 1024, 4096, 0, 3072},
};

__global__ void prep_read(const float4* __restrict__ p, size_t n, float* sink) {
  float acc = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const float4 v = p[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 12345.0f) *sink = acc;  // never true: keeps the loads
}

__global__ void prep_write(float4* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = make_float4(1.0f, 2.0f, 3.0f, (float)i);
  }
}

// The naive transpose twin's body (w_transpose_naive: its four loads, then its four stores),
// under a name the script profiles, with the output's row pitch, the CTAs' launch order and
// first column as parameters; kSync puts a barrier between the loads and the stores.
template <bool kSync>
__global__ void probe_transpose(const float* __restrict__ in, float* __restrict__ out, int n,
                                int pitch, int order, int col0,
                                int copy_below) {  // n: the input's pitch
  const int bx = order == 0 ? blockIdx.x : blockIdx.y;
  const int by = order == 0 ? blockIdx.y : blockIdx.x;
  const int x = bx * kTile + threadIdx.x;
  const int y = col0 + by * kTile + threadIdx.y;
  float v[kTile / kRows];
#pragma unroll
  for (int j = 0; j < kTile; j += kRows) v[j / kRows] = in[(y + j) * n + x];
  if (kSync) __syncthreads();
  if (col0 + by * kTile < copy_below) {  // the CTA's 32 lines, one row's line a store
    const int row = bx * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kRows) {
      out[static_cast<size_t>(row + j) * pitch + col0 + by * kTile + threadIdx.x] = v[j / kRows];
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < kTile; j += kRows) {
    out[static_cast<size_t>(x) * pitch + (y + j)] = v[j / kRows];
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int count = sizeof(kLaunches) / sizeof(kLaunches[0]);
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("state\tmb\trows\tcols\tpitch\torder\tcol0\tsync\tcopy_below\trepeat\n");
    for (int r = 0; r < kRepeats; ++r) {
      for (const Launch& l : kLaunches) {
        std::printf("%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", l.state, l.mb, l.rows,
                    l.cols, l.pitch, l.order, l.col0, l.sync, l.copy_below, r);
      }
    }
    return 0;
  }
  const size_t max_n = 4096, max_out = size_t{8192} * 8192;
  float *flush = nullptr, *prep = nullptr, *in = nullptr, *out = nullptr, *sink = nullptr;
  TWIN_CHECK(cudaMalloc(&flush, kFlushBytes));
  TWIN_CHECK(cudaMalloc(&prep, 48 * kMB));
  TWIN_CHECK(cudaMalloc(&in, max_n * max_n * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, max_out * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMemset(flush, 0, kFlushBytes));
  TWIN_CHECK(cudaMemset(prep, 0, 48 * kMB));
  TWIN_CHECK(cudaMemset(in, 0, max_n * max_n * sizeof(float)));
  TWIN_CHECK(cudaMemset(out, 0, max_out * sizeof(float)));
  const int ctas = 132 * 8, threads = 256;
  for (int r = 0; r < kRepeats; ++r) {
    for (int i = 0; i < count; ++i) {
      const Launch& l = kLaunches[i];
      if (std::strcmp(l.state, "keep") != 0) {
        prep_read<<<ctas, threads>>>(reinterpret_cast<const float4*>(flush), kFlushBytes / 16,
                                     sink);
      }
      const size_t prep_vectors = l.mb * kMB / 16;
      if (std::strcmp(l.state, "dirty") == 0) {
        prep_write<<<ctas, threads>>>(reinterpret_cast<float4*>(prep), prep_vectors);
      } else if (std::strcmp(l.state, "read") == 0) {
        prep_read<<<ctas, threads>>>(reinterpret_cast<const float4*>(prep), prep_vectors, sink);
      }
      const dim3 grid(l.rows / kTile, l.cols / kTile), block(kTile, kRows);
      const dim3 launched = l.order == 0 ? grid : dim3(grid.y, grid.x);
      if (l.sync != 0) {
        probe_transpose<true><<<launched, block>>>(in, out, l.rows, l.pitch, l.order, l.col0,
                                                   l.copy_below);
      } else {
        probe_transpose<false><<<launched, block>>>(in, out, l.rows, l.pitch, l.order, l.col0,
                                                    l.copy_below);
      }
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  TWIN_CHECK(cudaFree(flush));
  TWIN_CHECK(cudaFree(prep));
  TWIN_CHECK(cudaFree(in));
  TWIN_CHECK(cudaFree(out));
  TWIN_CHECK(cudaFree(sink));
  return 0;
}
