// Compute and divergence models (workloads/cuda/compute.cu, divergence.cu): dependent and
// independent FFMA chains, an SFU-heavy kernel, an integer kernel, and the divergent kernel with
// 2, 4 and 8 paths. Registers per thread are the compiled twins' (ncu launch__registers_per_thread
// in validate/reference/h200/raw.csv).
#include "workloads/listing_model.h"

namespace warpsim::workloads {
namespace {

// A compute kernel launched as <<<ctas, threads>>> with an output buffer and `iters`.
ModelSpec compute_model(std::string name, std::string description, std::string function,
                        uint32_t registers, bool two_floats, int64_t default_iters) {
  return {name, "compute", std::move(description), std::move(function),
          {{"ctas", 528, "CTAs"}, {"threads", 256, "threads per CTA"},
           {"iters", default_iters, "loop iterations"}},
          [registers, two_floats](const Params& p) {
            const int64_t ctas = p.get("ctas"), threads = p.get("threads");
            AddressSpace mem(p);
            const uint64_t out = mem.allocate(ctas * threads * 4);
            ParamPacker params;
            params.add(out);
            if (two_floats) params.add(0.999f).add(0.5f);
            params.add(int32_t(p.get("iters")));
            KernelLaunch k;
            k.grid = {static_cast<uint32_t>(ctas), 1, 1};
            k.block = {static_cast<uint32_t>(threads), 1, 1};
            k.registers_per_thread = registers;
            k.parameters = params.bytes();
            return k;
          }};
}

ModelSpec divergent_model(int ways, uint32_t registers) {
  const std::string w = std::to_string(ways);
  return {"divergent_" + w + "way", "divergence",
          "lane i runs one of " + w + " differently shaped FFMA loops, chosen by i % " + w,
          "11w_divergentILi" + w + "EE",
          {{"ctas", 132, "CTAs of 256 threads"}, {"iters", 512, "loop iterations per path"}},
          [registers](const Params& p) {
            const int64_t ctas = p.get("ctas");
            AddressSpace mem(p);
            const uint64_t out = mem.allocate(ctas * 256 * 4);
            KernelLaunch k;
            k.grid = {static_cast<uint32_t>(ctas), 1, 1};
            k.block = {256, 1, 1};
            k.registers_per_thread = registers;
            k.parameters = ParamPacker().add(out).add(int32_t(p.get("iters"))).bytes();
            return k;
          }};
}

}  // namespace

std::vector<ModelSpec> compute_models() {
  return {
      compute_model("ffma_dependent", "one dependent FFMA chain per thread (latency-bound)",
                    "16w_ffma_dependentE", 16, true, 4096),
      compute_model("ffma_independent", "eight independent FFMA chains per thread",
                    "18w_ffma_independentE", 25, true, 4096),
      compute_model("sfu", "x = rsqrtf(__expf(-x) + 1) per iteration (MUFU.EX2, MUFU.RSQ)",
                    "5w_sfuE", 16, false, 4096),
      compute_model("integer", "a multiply-add / xor-shift integer recurrence", "9w_integerE", 16,
                    false, 4096),
      divergent_model(2, 16),
      divergent_model(4, 16),
      divergent_model(8, 20),
  };
}

}  // namespace warpsim::workloads
