// Tensor-core models (workloads/cuda/gemm.cu, gemm_wgmma.cu, flash_attention.cu): a bf16 GEMM on
// warp-level mma.sync (HMMA), a bf16 GEMM on Hopper's warpgroup wgmma (HGMMA, operands from
// shared-memory descriptors), and a FlashAttention-style forward pass (HMMA, online softmax).
// Registers per thread and static shared memory are the compiled twins' (ncu
// launch__registers_per_thread and launch__shared_mem_per_block_static in
// validate/reference/h200/raw.csv).
#include <string>

#include "arch/error.h"
#include "workloads/listing_model.h"

namespace warpsim::workloads {
namespace {

// Throws unless every value is a positive multiple of its step, naming the model and the values.
void require_multiples(const std::string& model,
                       std::initializer_list<std::pair<const char*, std::pair<int64_t, int64_t>>>
                           values) {
  std::string rule, got;
  bool ok = true;
  for (const auto& [name, vs] : values) {
    const auto [value, step] = vs;
    ok = ok && value % step == 0;
    rule += std::string(rule.empty() ? "" : ", ") + name + " a multiple of " +
            std::to_string(step);
    got += std::string(got.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  }
  if (!ok) throw InputError(model + ": expected " + rule + " (got " + got + ")");
}

// A GEMM launch with A, B (bf16) and C (fp32) buffers and (m, n, k) parameters.
KernelLaunch gemm_launch(const Params& p, int64_t m, int64_t n, int64_t k, traces::Dim3 grid,
                         uint32_t threads, uint32_t registers, uint32_t shared_bytes) {
  AddressSpace mem(p);
  const uint64_t a = mem.allocate(m * k * 2), b = mem.allocate(k * n * 2),
                 c = mem.allocate(m * n * 4);
  KernelLaunch launch;
  launch.grid = grid;
  launch.block = {threads, 1, 1};
  launch.registers_per_thread = registers;
  launch.static_shared_bytes = shared_bytes;
  launch.parameters = ParamPacker()
                          .add(a)
                          .add(b)
                          .add(c)
                          .add(int32_t(m))
                          .add(int32_t(n))
                          .add(int32_t(k))
                          .bytes();
  return launch;
}

ModelSpec gemm_mma_model() {
  return {"gemm_mma_bf16", "tensor",
          "bf16 GEMM on warp-level mma.sync m16n8k16 (HMMA), a 32 x 32 tile per CTA of 4 warps",
          "15w_gemm_mma_bf16E",
          {{"m", 1024, "rows of A and C (a multiple of 32)", 32},
           {"n", 1024, "columns of B and C (a multiple of 32)", 32},
           {"k", 1024, "columns of A, rows of B (a multiple of 16)", 16}},
          [](const Params& p) {
            const int64_t m = p.get("m"), n = p.get("n"), k = p.get("k");
            require_multiples("gemm_mma_bf16", {{"m", {m, 32}}, {"n", {n, 32}}, {"k", {k, 16}}});
            return gemm_launch(
                p, m, n, k, {static_cast<uint32_t>(n / 32), static_cast<uint32_t>(m / 32), 1}, 128,
                40, 0);
          }};
}

ModelSpec gemm_wgmma_model() {
  return {"gemm_wgmma_bf16", "tensor",
          "bf16 GEMM C = A Bᵀ on Hopper wgmma m64n128k16 (HGMMA) from shared memory, a 64 x 128 "
          "tile per CTA of one warpgroup, 64-wide K stages (sm_90a)",
          "17w_gemm_wgmma_bf16E",
          {{"m", 1024, "rows of A and C (a multiple of 64)", 64},
           {"n", 1024, "rows of B, columns of C (a multiple of 128)", 128},
           {"k", 1024, "columns of A and B (a multiple of 64)", 64}},
          [](const Params& p) {
            const int64_t m = p.get("m"), n = p.get("n"), k = p.get("k");
            require_multiples("gemm_wgmma_bf16",
                              {{"m", {m, 64}}, {"n", {n, 128}}, {"k", {k, 64}}});
            return gemm_launch(
                p, m, n, k, {static_cast<uint32_t>(n / 128), static_cast<uint32_t>(m / 64), 1}, 128,
                128, 24576);
          }};
}

ModelSpec flash_attention_model() {
  return {"flash_attention", "attention",
          "FlashAttention-style forward, head dim 64, bf16 Q/K/V, fp32 O: 64 query rows per CTA "
          "of 4 warps, 64-key blocks through shared memory, S = Q Kᵀ and O += P V on mma.sync, "
          "online softmax",
          "17w_flash_attentionE",
          {{"heads", 16, "batch x heads"}, {"seq", 1024, "sequence length (a multiple of 64)", 64}},
          [](const Params& p) {
            const int64_t heads = p.get("heads"), seq = p.get("seq");
            require_multiples("flash_attention", {{"seq", {seq, 64}}});
            AddressSpace mem(p);
            const uint64_t elems = heads * seq * 64;
            const uint64_t q = mem.allocate(elems * 2), k = mem.allocate(elems * 2),
                           v = mem.allocate(elems * 2), o = mem.allocate(elems * 4);
            KernelLaunch launch;
            launch.grid = {static_cast<uint32_t>(seq / 64), static_cast<uint32_t>(heads), 1};
            launch.block = {128, 1, 1};
            launch.registers_per_thread = 152;
            launch.static_shared_bytes = 18432;
            launch.parameters =
                ParamPacker().add(q).add(k).add(v).add(o).add(int32_t(seq)).bytes();
            return launch;
          }};
}

}  // namespace

std::vector<ModelSpec> tensor_models() {
  return {gemm_mma_model(), gemm_wgmma_model(), flash_attention_model()};
}

}  // namespace warpsim::workloads
