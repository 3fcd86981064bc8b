// Attention twin: a FlashAttention-style forward pass, O = softmax(Q Kᵀ / sqrt(d)) V, non-causal,
// bf16 inputs [heads][seq][64] and fp32 output, on warp-level mma.sync (m16n8k16, HMMA in SASS).
// Each CTA (4 warps) owns 64 query rows of one head, each warp 16 of them, with its Q fragments
// in registers. Per block of 64 keys the CTA copies K and V into shared memory (rows padded to
// 144 bytes, conflict-free); each warp computes S = Q Kᵀ (32 HMMA, K fragments by 32-bit LDS),
// updates the running row maximum and sum (online softmax: quad shuffles, MUFU.EX2), rescales
// its output accumulators, and adds P V (32 HMMA, V fragments by ldmatrix.trans). At the end the
// rows are divided by their sums.
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "twins.cuh"

// Runs at the start of each block of keys; empty in the twin. A probe that includes this file may
// define it first to time the blocks (validate/capture/probes/flash_steps.cu).
#ifndef FLASH_BLOCK_HOOK
#define FLASH_BLOCK_HOOK(kv0)
#endif

namespace {

constexpr int kD = 64;        // head dimension
constexpr int kBq = 64;       // query rows per CTA
constexpr int kBkv = 64;      // keys per block
constexpr int kPitch = 72;    // shared row pitch, bf16 elements (144 bytes)
constexpr float kScaleLog2 = 0.125f * 1.4426950408889634f;  // 1/sqrt(64), in base 2

__device__ __forceinline__ float ex2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

__device__ __forceinline__ void mma_bf16(float (&acc)[4], const uint32_t (&fa)[4], uint32_t b0,
                                         uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(b0), "r"(b1));
}

__global__ void __launch_bounds__(128, 1) w_flash_attention(const __nv_bfloat16* __restrict__ q,
                                                         const __nv_bfloat16* __restrict__ k,
                                                         const __nv_bfloat16* __restrict__ v,
                                                         float* __restrict__ o, int seq) {
  __shared__ __align__(16) __nv_bfloat16 ks[kBkv * kPitch];
  __shared__ __align__(16) __nv_bfloat16 vs[kBkv * kPitch];
  const int t = threadIdx.x, warp = t / 32, lane = t % 32, g = lane / 4, qd = lane % 4;
  const size_t head = static_cast<size_t>(blockIdx.y) * seq * kD;
  const int row0 = blockIdx.x * kBq + warp * 16;

  uint32_t fq[kD / 16][4];  // A fragments of the warp's 16 query rows, one set per k16 step
#pragma unroll
  for (int s = 0; s < kD / 16; ++s) {
    const __nv_bfloat16* base = q + head + static_cast<size_t>(row0 + g) * kD + 16 * s + 2 * qd;
    fq[s][0] = *reinterpret_cast<const uint32_t*>(base);
    fq[s][1] = *reinterpret_cast<const uint32_t*>(base + 8 * kD);
    fq[s][2] = *reinterpret_cast<const uint32_t*>(base + 8);
    fq[s][3] = *reinterpret_cast<const uint32_t*>(base + 8 * kD + 8);
  }
  float acc_o[kD / 8][4] = {};
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.0f, 0.0f};

  for (int kv0 = 0; kv0 < seq; kv0 += kBkv) {
    FLASH_BLOCK_HOOK(kv0);
#pragma unroll
    for (int j = 0; j < kBkv * kD / 8 / 128; ++j) {
      const int i = t + 128 * j, r = i / 8, c = i % 8;
      const size_t at = head + static_cast<size_t>(kv0 + r) * kD + c * 8;
      *reinterpret_cast<uint4*>(ks + r * kPitch + c * 8) = *reinterpret_cast<const uint4*>(k + at);
      *reinterpret_cast<uint4*>(vs + r * kPitch + c * 8) = *reinterpret_cast<const uint4*>(v + at);
    }
    __syncthreads();

    float acc_s[kBkv / 8][4] = {};  // S: 16 rows x 64 keys, n8 tile j holds keys 8j..8j+7
#pragma unroll
    for (int j = 0; j < kBkv / 8; ++j) {
#pragma unroll
      for (int s = 0; s < kD / 16; ++s) {
        const __nv_bfloat16* kb = ks + (8 * j + g) * kPitch + 16 * s + 2 * qd;
        mma_bf16(acc_s[j], fq[s], *reinterpret_cast<const uint32_t*>(kb),
                 *reinterpret_cast<const uint32_t*>(kb + 8));
      }
    }
    // Online softmax over rows g (regs 0, 1) and g + 8 (regs 2, 3); a row spans a quad of lanes.
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float m = row_max[h];
#pragma unroll
      for (int j = 0; j < kBkv / 8; ++j) m = fmaxf(m, fmaxf(acc_s[j][2 * h], acc_s[j][2 * h + 1]));
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1));
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 2));
      const float alpha = ex2((row_max[h] - m) * kScaleLog2);
      row_max[h] = m;
      float sum = 0.0f;
#pragma unroll
      for (int j = 0; j < kBkv / 8; ++j) {
        acc_s[j][2 * h] = ex2((acc_s[j][2 * h] - m) * kScaleLog2);
        acc_s[j][2 * h + 1] = ex2((acc_s[j][2 * h + 1] - m) * kScaleLog2);
        sum += acc_s[j][2 * h] + acc_s[j][2 * h + 1];
      }
      row_sum[h] = row_sum[h] * alpha + sum;  // this lane's part; the quad is summed at the end
#pragma unroll
      for (int j = 0; j < kD / 8; ++j) {
        acc_o[j][2 * h] *= alpha;
        acc_o[j][2 * h + 1] *= alpha;
      }
    }
    // O += P V: P's accumulator layout is the A fragment layout (two n8 tiles per k16 step).
#pragma unroll
    for (int s = 0; s < kBkv / 16; ++s) {
      const uint32_t fp[4] = {pack_bf16(acc_s[2 * s][0], acc_s[2 * s][1]),
                              pack_bf16(acc_s[2 * s][2], acc_s[2 * s][3]),
                              pack_bf16(acc_s[2 * s + 1][0], acc_s[2 * s + 1][1]),
                              pack_bf16(acc_s[2 * s + 1][2], acc_s[2 * s + 1][3])};
#pragma unroll
      for (int j = 0; j < kD / 8; ++j) {
        const uint32_t row_address = static_cast<uint32_t>(
            __cvta_generic_to_shared(vs + (16 * s + lane % 16) * kPitch + 8 * j));
        uint32_t b0, b1;
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(b0), "=r"(b1)
                     : "r"(row_address));
        mma_bf16(acc_o[j], fp, b0, b1);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float sum = row_sum[h];
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    const float inv = __fdividef(1.0f, sum);
    float* out = o + head + static_cast<size_t>(row0 + g + 8 * h) * kD + 2 * qd;
#pragma unroll
    for (int j = 0; j < kD / 8; ++j) {
      *reinterpret_cast<float2*>(out + 8 * j) =
          make_float2(acc_o[j][2 * h] * inv, acc_o[j][2 * h + 1] * inv);
    }
  }
}

// Checks a few output rows against a float64 attention over the same bf16 inputs.
void check(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, const float* o,
           int heads, int seq) {
  const size_t elems = static_cast<size_t>(heads) * seq * kD;
  std::vector<__nv_bfloat16> hq(elems), hk(elems), hv(elems);
  std::vector<float> ho(elems);
  TWIN_CHECK(cudaMemcpy(hq.data(), q, elems * 2, cudaMemcpyDeviceToHost));
  TWIN_CHECK(cudaMemcpy(hk.data(), k, elems * 2, cudaMemcpyDeviceToHost));
  TWIN_CHECK(cudaMemcpy(hv.data(), v, elems * 2, cudaMemcpyDeviceToHost));
  TWIN_CHECK(cudaMemcpy(ho.data(), o, elems * 4, cudaMemcpyDeviceToHost));
  const auto f = [](const __nv_bfloat16& x) { return static_cast<double>(__bfloat162float(x)); };
  for (const auto [h, r] : {std::pair{0, 0}, std::pair{0, 17}, std::pair{heads - 1, seq - 1}}) {
    const size_t base = static_cast<size_t>(h) * seq * kD;
    std::vector<double> p(seq);
    double m = -INFINITY, total = 0;
    for (int j = 0; j < seq; ++j) {
      double dot = 0;
      for (int d = 0; d < kD; ++d) dot += f(hq[base + r * kD + d]) * f(hk[base + j * kD + d]);
      p[j] = dot / 8.0;
      m = std::max(m, p[j]);
    }
    for (int j = 0; j < seq; ++j) total += p[j] = std::exp(p[j] - m);
    for (int d = 0; d < kD; ++d) {
      double ref = 0;
      for (int j = 0; j < seq; ++j) ref += p[j] * f(hv[base + j * kD + d]);
      ref /= total;
      const double got = ho[base + static_cast<size_t>(r) * kD + d];
      if (std::abs(got - ref) > 2e-3) {
        std::fprintf(stderr, "w_flash_attention: O[%d][%d][%d] = %f, expected %f\n", h, r, d, got,
                     ref);
        std::exit(1);
      }
    }
  }
}

twins::Point attention_point(int heads, int seq) {
  return {"flash_attention/heads=" + std::to_string(heads) + ",seq=" + std::to_string(seq),
          "flash_attention", "attention", "test",
          twins::kv("heads", heads) + ";" + twins::kv("seq", seq), [=] {
            const size_t elems = static_cast<size_t>(heads) * seq * kD;
            __nv_bfloat16* qkv[3];
            for (int i = 0; i < 3; ++i) {  // Q scaled by 4: peaky softmax rows
              qkv[i] = twins::random_bf16(elems, 21 + i, i == 0 ? 4.0f : 1.0f);
            }
            float* o = static_cast<float*>(twins::poisoned(elems * sizeof(float)));
            twins::settle();
            w_flash_attention<<<dim3(seq / kBq, heads), 128>>>(qkv[0], qkv[1], qkv[2], o, seq);
            twins::finish_launch("w_flash_attention");
            check(qkv[0], qkv[1], qkv[2], o, heads, seq);
            for (auto* p : qkv) cudaFree(p);
            cudaFree(o);
          }};
}

const twins::Register kPoints({attention_point(8, 512), attention_point(16, 1024),
                               attention_point(32, 2048)});

}  // namespace
