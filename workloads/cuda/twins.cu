// Driver of the CUDA twins: `twins list` prints the points as TSV (index, name, kernel, category,
// role, params); `twins run [substring]` launches them in order (optionally only names containing
// the substring), printing one "POINT <index> <name>" line per launch. Points this GPU cannot run
// are left out of both.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "twins.cuh"

namespace twins {

std::vector<Point>& registry() {
  static std::vector<Point> points;
  return points;
}

namespace {
__global__ void fill_random(float* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    p[i] = (float)(x & 0xFFFFFF) / 8388608.0f - 1.0f;
    if (p[i] == 0.0f) p[i] = 0.5f;
  }
}
// Reads a buffer several times the L2's size so that every line the set-up left dirty is written
// back before the measured launch (the sum keeps the reads alive).
__global__ void settle_l2(const float4* p, size_t n, float* sink) { read_all(p, n, sink); }
__global__ void to_bf16(const float* in, __nv_bfloat16* out, size_t n, float scale) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    out[i] = __float2bfloat16(in[i] * scale);
  }
}
}  // namespace

__nv_bfloat16* random_bf16(size_t n, unsigned seed, float scale) {
  float* f = random_floats(n, seed);
  __nv_bfloat16* out = nullptr;
  TWIN_CHECK(cudaMalloc(&out, n * sizeof(__nv_bfloat16)));
  to_bf16<<<1024, 256>>>(f, out, n, scale);
  TWIN_CHECK(cudaDeviceSynchronize());
  TWIN_CHECK(cudaFree(f));
  return out;
}

void settle() {
  static const char* env = std::getenv("TWINS_SETTLE");
  if (env == nullptr || std::strcmp(env, "0") == 0) return;
  constexpr size_t kBytes = size_t{512} << 20;  // ten times the H200's 50 MB L2
  static float4* buffer = nullptr;
  static float* sink = nullptr;
  if (buffer == nullptr) {
    TWIN_CHECK(cudaMalloc(&buffer, kBytes));
    TWIN_CHECK(cudaMemset(buffer, 0, kBytes));
    TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  }
  // Twice: the first pass writes back what the set-up left dirty, the second what the first
  // pass's own memset left.
  for (int pass = 0; pass < 2; ++pass) settle_l2<<<1024, 256>>>(buffer, kBytes / 16, sink);
  TWIN_CHECK(cudaDeviceSynchronize());
}

void check_gemm_bf16(const char* kernel, const __nv_bfloat16* a, const __nv_bfloat16* b,
                     const float* c, int size, bool b_transposed,
                     std::initializer_list<std::pair<int, int>> at) {
  const size_t elems = static_cast<size_t>(size) * size;
  std::vector<__nv_bfloat16> ha(elems), hb(elems);
  std::vector<float> hc(elems);
  TWIN_CHECK(cudaMemcpy(ha.data(), a, elems * 2, cudaMemcpyDeviceToHost));
  TWIN_CHECK(cudaMemcpy(hb.data(), b, elems * 2, cudaMemcpyDeviceToHost));
  TWIN_CHECK(cudaMemcpy(hc.data(), c, elems * 4, cudaMemcpyDeviceToHost));
  for (const auto [i, j] : at) {
    double ref = 0, norm = 0;
    for (int kk = 0; kk < size; ++kk) {
      const size_t bi = b_transposed ? static_cast<size_t>(j) * size + kk
                                     : static_cast<size_t>(kk) * size + j;
      const double p =
          static_cast<double>(__bfloat162float(ha[static_cast<size_t>(i) * size + kk])) *
          __bfloat162float(hb[bi]);
      ref += p;
      norm += std::abs(p);
    }
    const double got = hc[static_cast<size_t>(i) * size + j];
    if (std::abs(got - ref) > 1e-3 * norm + 1e-3) {
      std::fprintf(stderr, "%s: C[%d][%d] = %f, expected %f\n", kernel, i, j, got, ref);
      std::exit(1);
    }
  }
}

float* random_floats(size_t n, unsigned seed) {
  float* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, n * sizeof(float)));
  fill_random<<<1024, 256>>>(p, n, seed);
  TWIN_CHECK(cudaGetLastError());
  return p;
}

int compute_capability() {
  static const int cc = [] {
    cudaDeviceProp prop{};
    TWIN_CHECK(cudaGetDeviceProperties(&prop, 0));
    return prop.major * 10 + prop.minor;
  }();
  return cc;
}

void* poisoned(size_t bytes) {
  void* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, bytes));
  TWIN_CHECK(cudaMemset(p, 0xFF, bytes));
  return p;
}

void finish_launch(const char* what) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
    std::exit(1);
  }
}

}  // namespace twins

int main(int argc, char** argv) {
  const auto& points = twins::registry();
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    std::cout << "index\tname\tkernel\tcategory\trole\tparams\n";
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      if (p.supported && !p.supported()) continue;
      std::cout << i << '\t' << p.name << '\t' << p.kernel << '\t' << p.category << '\t' << p.role
                << '\t' << p.params << '\n';
    }
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "run") == 0) {
    const char* filter = argc >= 3 ? argv[2] : nullptr;
    // TWINS_PAD_MB=N: each point's buffers are allocated after N MB of padding, held while the
    // point runs, so they land elsewhere in memory (the L2 maps physical addresses to slices and
    // sets; validate/README.md, "Placement").
    const char* pad_env = std::getenv("TWINS_PAD_MB");
    const size_t pad_bytes = pad_env ? std::strtoull(pad_env, nullptr, 10) << 20 : 0;
    for (size_t i = 0; i < points.size(); ++i) {
      if (filter && points[i].name.find(filter) == std::string::npos) continue;
      if (points[i].supported && !points[i].supported()) continue;
      std::cout << "POINT " << i << ' ' << points[i].name << std::endl;
      void* pad = nullptr;
      if (pad_bytes != 0) TWIN_CHECK(cudaMalloc(&pad, pad_bytes));
      points[i].run();
      twins::finish_launch(points[i].name.c_str());
      if (pad != nullptr) TWIN_CHECK(cudaFree(pad));
    }
    return 0;
  }
  std::cerr << "usage: twins list | twins run [name-substring]\n";
  return 2;
}
