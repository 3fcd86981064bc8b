// HBM streaming bandwidth of the GPU it runs on: read-only, write-only and copy kernels over
// 1 GiB arrays (16-byte accesses, grid-stride loops unrolled 8 times, 8 CTAs of 256 threads per SM), best of 20
// timed launches each (cudaEvent). Prints CSV: kernel, bytes_read, bytes_written, microseconds,
// terabytes_per_second (10^12 bytes/s, reads plus writes).
// Build: nvcc -O3 -arch=sm_90 bandwidth.cu -o bandwidth; run: ./bandwidth
#include <cstdio>
#include <cuda_runtime.h>

namespace {

__global__ void read_stream(const float4* __restrict__ in, size_t n, float* out) {
  float4 acc = {0, 0, 0, 0};
#pragma unroll 8
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const float4 v = in[i];
    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
  }
  const float s = acc.x + acc.y + acc.z + acc.w;
  if (s == 12345.678f) out[threadIdx.x] = s;  // keeps the loads; never true for the zeroed input
}

__global__ void write_stream(float4* __restrict__ out, size_t n) {
#pragma unroll 8
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    out[i] = make_float4(1, 2, 3, 4);
  }
}

__global__ void copy_stream(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
#pragma unroll 8
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    out[i] = in[i];
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class Launch>
float best_us(Launch launch) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  launch();  // warm-up
  check(cudaDeviceSynchronize(), "warm-up");
  float best = 1e30f;
  for (int r = 0; r < 20; ++r) {
    check(cudaEventRecord(a), "record");
    launch();
    check(cudaEventRecord(b), "record");
    check(cudaEventSynchronize(b), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "elapsed");
    if (ms < best) best = ms;
  }
  return best * 1000.0f;
}

}  // namespace

int main() {
  const size_t bytes = size_t{1} << 30;
  const size_t n = bytes / sizeof(float4);
  float4 *x = nullptr, *y = nullptr;
  float* sink = nullptr;
  check(cudaMalloc(&x, bytes), "malloc");
  check(cudaMalloc(&y, bytes), "malloc");
  check(cudaMalloc(&sink, 1024 * sizeof(float)), "malloc");
  check(cudaMemset(x, 0, bytes), "memset");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  const dim3 grid(sms * 8), block(256);
  std::printf("kernel,bytes_read,bytes_written,microseconds,terabytes_per_second\n");
  const auto row = [&](const char* name, size_t rd, size_t wr, float us) {
    std::printf("%s,%zu,%zu,%.1f,%.3f\n", name, rd, wr, us, (rd + wr) / (us * 1e6));
  };
  row("read", bytes, 0, best_us([&] { read_stream<<<grid, block>>>(x, n, sink); }));
  row("write", 0, bytes, best_us([&] { write_stream<<<grid, block>>>(y, n); }));
  row("copy", bytes, bytes, best_us([&] { copy_stream<<<grid, block>>>(x, y, n); }));
  check(cudaGetLastError(), "launch");
  return 0;
}
