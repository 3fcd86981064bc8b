// Probe of what makes the gemm_mma_bf16 twin (n = 2048) write back part of its C during the run
// on the H200 (1.97 MB of 16 MB, one pass, from an empty L2) where gemm_wgmma_bf16, with the same
// A, B and C, writes back none. Launches (names start "probe_"; profile with one-pass DRAM metrics
// and --cache-control all, gemm_stores.sh, so each starts from an empty L2):
//   twin/K      the twin's kernel body (workloads/cuda/gemm_mma_tile.cuh; m = n = 2048, k = K):
//               32x32 tiles, four warps, mma.sync, C stored 4 bytes at a time (two STG.E per
//               sector, 8 bytes apart)
//   vec/K       the same with each thread's two neighbouring floats stored as one 8-byte STG.E.64
//               (whole sectors)
//   stores/S    no loads and no mma: the twin's grid and C stores (4-byte) after each CTA spins for
//               S clock64 cycles, so the C writes come at about the twin's times without the reads
//   stores_vec/S  the same with 8-byte stores
// `gemm_stores list` prints one line per profiled launch (variant, kernel, parameter).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_probe.cuh"
#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kN = 2048;  // m = n

__global__ void probe_twin(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n,
                           int k) {
  twins::gemm_mma_tile<false>(a, b, c, n, k);
}
__global__ void probe_vec(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n,
                          int k) {
  twins::gemm_mma_tile<true>(a, b, c, n, k);
}

// The twin's C stores after `spin` cycles, no loads.
template <bool kVec>
__device__ void stores(float* c, int n, long long spin) {
  const long long start = clock64();
  while (clock64() - start < spin) {
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 32 + (warp / 2) * 16;
  const int col0 = blockIdx.x * 32 + (warp % 2) * 16;
  const int g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    const int col = col0 + j * 8 + t * 2;
    float* c0 = c + static_cast<size_t>(row0 + g) * n + col;
    float* c1 = c + static_cast<size_t>(row0 + g + 8) * n + col;
    const float v = static_cast<float>(lane);
    if (kVec) {
      *reinterpret_cast<float2*>(c0) = make_float2(v, v);
      *reinterpret_cast<float2*>(c1) = make_float2(v, v);
    } else {
      c0[0] = v;
      c0[1] = v;
      c1[0] = v;
      c1[1] = v;
    }
  }
}
__global__ void probe_stores(float* c, int n, long long spin) { stores<false>(c, n, spin); }
__global__ void probe_stores_vec(float* c, int n, long long spin) { stores<true>(c, n, spin); }

struct Launch {
  std::string variant, kernel;
  long long param;
};

std::vector<Launch> launches() {
  std::vector<Launch> l;
  for (int rep = 0; rep < 2; ++rep) {
    for (long long k : {512, 1024, 2048}) {
      l.push_back({"twin/" + std::to_string(k), "probe_twin", k});
      l.push_back({"vec/" + std::to_string(k), "probe_vec", k});
    }
    for (long long s : {0LL, 250000LL, 500000LL}) {
      l.push_back({"stores/" + std::to_string(s), "probe_stores", s});
      l.push_back({"stores_vec/" + std::to_string(s), "probe_stores_vec", s});
    }
  }
  return l;
}

}  // namespace

int main(int argc, char** argv) {
  const auto all = launches();
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    std::printf("variant\tkernel\tparam\n");
    for (const auto& x : all) {
      std::printf("%s\t%s\t%lld\n", x.variant.c_str(), x.kernel.c_str(), x.param);
    }
    return 0;
  }
  const size_t ab = static_cast<size_t>(kN) * kN;  // elements of A and of B at k = 2048
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  float* c = nullptr;
  TWIN_CHECK(cudaMalloc(&a, ab * sizeof(__nv_bfloat16)));
  TWIN_CHECK(cudaMalloc(&b, ab * sizeof(__nv_bfloat16)));
  TWIN_CHECK(cudaMalloc(&c, static_cast<size_t>(kN) * kN * sizeof(float)));
  gemm_probe::fill_bf16<<<1056, 256>>>(a, ab);
  gemm_probe::fill_bf16<<<1056, 256>>>(b, ab);
  TWIN_CHECK(cudaMemset(c, 0xFF, static_cast<size_t>(kN) * kN * sizeof(float)));
  TWIN_CHECK(cudaDeviceSynchronize());
  const dim3 grid(kN / 32, kN / 32);
  for (const auto& x : all) {
    if (x.kernel == "probe_twin") {
      probe_twin<<<grid, 128>>>(a, b, c, kN, static_cast<int>(x.param));
    } else if (x.kernel == "probe_vec") {
      probe_vec<<<grid, 128>>>(a, b, c, kN, static_cast<int>(x.param));
    } else if (x.kernel == "probe_stores") {
      probe_stores<<<grid, 128>>>(c, kN, x.param);
    } else {
      probe_stores_vec<<<grid, 128>>>(c, kN, x.param);
    }
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
  }
  return 0;
}
