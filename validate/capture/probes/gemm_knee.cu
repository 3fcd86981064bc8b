// Probe of where the gemm_mma_bf16 twin's write-backs begin as its inputs grow: the twin's kernel
// body (workloads/cuda/gemm_mma_tile.cuh; m = n = 2048, 32 x 32 tiles, C fp32 stored 4 bytes at
// a time) at k = 1024 to 3072, A (m x k) and B (k x n) bf16 and C allocated afresh for each
// launch, sized as the twin and the workload model size them. A and B with their near-partition
// copies take 16 MB per 1024 of k, C with its writers' copies 24 MB, so the L2's lines fill from
// two thirds of the H100's 50 MB to beyond the H200's 60 MB. Profile with one-pass DRAM metrics
// and --cache-control all (gemm_knee.sh), so each launch starts from an empty L2: its DRAM writes
// are the part of C the L2 could not hold.
//   launch names: N/K/REP (m = n = N), kernel probe_gemm, parameter K; two repeats of every K
// TWINS_PAD_MB=N allocates N MB before the buffers and holds it (another placement).
// GEMM_KNEE_N=N sets m = n (default 2048, a multiple of 32) and GEMM_KNEE_KS=K1,K2,... the k
// values (default 1024 to 3072 as below; multiples of 16): a smaller C moves the knee to larger k.
// `gemm_knee list` prints one line per profiled launch (variant, kernel, parameter).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_probe.cuh"
#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kRepeats = 2;

// m = n, from GEMM_KNEE_N (default 2048).
int size_n() {
  const char* env = std::getenv("GEMM_KNEE_N");
  return env ? std::atoi(env) : 2048;
}

// The k values, from GEMM_KNEE_KS (default 1024 to 3072).
std::vector<int> ks() {
  const char* env = std::getenv("GEMM_KNEE_KS");
  std::vector<int> out;
  if (env == nullptr) return {1024, 1280, 1536, 1792, 2048, 2304, 2560, 3072};
  for (const char* p = env; *p != '\0';) {
    out.push_back(std::atoi(p));
    while (*p != '\0' && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return out;
}

__global__ void probe_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n,
                           int k) {
  twins::gemm_mma_tile<false>(a, b, c, n, k);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = size_n();
  const std::vector<int> k_values = ks();
  if (n <= 0 || n % 32 != 0 || k_values.empty()) {
    std::fprintf(stderr, "gemm_knee: GEMM_KNEE_N must be a positive multiple of 32 and "
                         "GEMM_KNEE_KS a list of k values\n");
    return 2;
  }
  for (int k : k_values) {
    if (k <= 0 || k % 16 != 0) {
      std::fprintf(stderr, "gemm_knee: k=%d in GEMM_KNEE_KS is not a positive multiple of 16\n",
                   k);
      return 2;
    }
  }
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    std::printf("variant\tkernel\tparam\n");
    for (int rep = 0; rep < kRepeats; ++rep) {
      for (int k : k_values) std::printf("%d/%d/%d\tprobe_gemm\t%d\n", n, k, rep, k);
    }
    return 0;
  }
  const char* pad_env = std::getenv("TWINS_PAD_MB");
  const size_t pad_bytes = pad_env ? std::strtoull(pad_env, nullptr, 10) << 20 : 0;
  void* pad = nullptr;
  if (pad_bytes != 0) TWIN_CHECK(cudaMalloc(&pad, pad_bytes));
  for (int rep = 0; rep < kRepeats; ++rep) {
    for (int k : k_values) {
      const size_t ab = static_cast<size_t>(n) * k;  // elements of A and of B
      const size_t c_bytes = static_cast<size_t>(n) * n * sizeof(float);
      __nv_bfloat16 *a = nullptr, *b = nullptr;
      float* c = nullptr;
      TWIN_CHECK(cudaMalloc(&a, ab * sizeof(__nv_bfloat16)));
      TWIN_CHECK(cudaMalloc(&b, ab * sizeof(__nv_bfloat16)));
      TWIN_CHECK(cudaMalloc(&c, c_bytes));
      gemm_probe::fill_bf16<<<1056, 256>>>(a, ab);
      gemm_probe::fill_bf16<<<1056, 256>>>(b, ab);
      TWIN_CHECK(cudaMemset(c, 0xFF, c_bytes));
      TWIN_CHECK(cudaDeviceSynchronize());
      probe_gemm<<<dim3(n / 32, n / 32), 128>>>(a, b, c, n, k);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaDeviceSynchronize());
      TWIN_CHECK(cudaFree(a));
      TWIN_CHECK(cudaFree(b));
      TWIN_CHECK(cudaFree(c));
    }
  }
  if (pad != nullptr) TWIN_CHECK(cudaFree(pad));
  return 0;
}
