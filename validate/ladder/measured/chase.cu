// Steady-state pointer chase over footprints around the H200's L2 partition size.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include <algorithm>

__global__ void chase(const unsigned* __restrict__ chain, long long warm, long long hops,
                      unsigned* sink, long long* cycles) {
  unsigned idx = 0;
  for (long long h = 0; h < warm; ++h) idx = chain[idx];
  long long t0 = clock64();
  for (long long h = 0; h < hops; ++h) idx = chain[idx];
  long long t1 = clock64();
  if (threadIdx.x == 0) { *sink = idx; *cycles = t1 - t0; }
}

int main(int argc, char** argv) {
  const size_t node = 128;
  std::vector<double> mbs;
  for (int i = 1; i < argc; ++i) mbs.push_back(atof(argv[i]));
  unsigned* sink; long long* cyc;
  cudaMalloc(&sink, 4); cudaMalloc(&cyc, 8);
  int sm = 0; cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0);
  int l2 = 0; cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  printf("# sms %d l2_bytes %d\n", sm, l2);
  printf("footprint_mb,nodes,warm_hops,timed_hops,cycles_per_hop,rep\n");
  for (double mb : mbs) {
    size_t bytes = (size_t)(mb * 1048576.0);
    size_t nodes = bytes / node;
    bytes = nodes * node;
    const size_t stride = node / 4;
    std::vector<unsigned> next(nodes);
    for (size_t k = 0; k < nodes; ++k) next[k] = (unsigned)k;
    std::mt19937_64 rng(42);
    for (size_t k = nodes - 1; k > 0; --k) {
      std::uniform_int_distribution<size_t> pick(0, k - 1);
      std::swap(next[k], next[pick(rng)]);
    }
    std::vector<unsigned> host(bytes / 4, 0);
    for (size_t k = 0; k < nodes; ++k) host[k * stride] = (unsigned)(next[k] * stride);
    unsigned* chain; cudaMalloc(&chain, bytes);
    cudaMemcpy(chain, host.data(), bytes, cudaMemcpyHostToDevice);
    long long warm = 2 * (long long)nodes;
    long long hops = std::min<long long>(std::max<long long>(nodes, 65536), 2 * 1048576);
    for (int rep = 0; rep < 2; ++rep) {
      chase<<<1, 32>>>(chain, warm, hops, sink, cyc);
      cudaDeviceSynchronize();
      long long c = 0; cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost);
      printf("%.2f,%zu,%lld,%lld,%.2f,%d\n", mb, nodes, warm, hops, (double)c / hops, rep);
      fflush(stdout);
    }
    cudaFree(chain);
  }
  cudaError_t e = cudaGetLastError();
  printf("# %s\n", cudaGetErrorString(e));
}
