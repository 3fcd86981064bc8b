// Streaming models (workloads/cuda/streaming.cu): copy and saxpy from L2-resident to HBM-bound
// sizes, and strided copies. Registers per thread are the compiled twins' (ncu
// launch__registers_per_thread in validate/reference/h200/raw.csv).
#include "workloads/listing_model.h"

namespace warpsim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

traces::Dim3 grid_for(int64_t n) {
  return {static_cast<uint32_t>((n + kBlock - 1) / kBlock), 1, 1};
}

}  // namespace

std::vector<ModelSpec> streaming_models() {
  std::vector<ModelSpec> models;
  models.push_back({"copy", "streaming", "out[i] = in[i] over n floats, one element per thread",
                    "6w_copyE",
                    {{"n", 1 << 24, "elements"}},
                    [](const Params& p) {
                      const int64_t n = p.get("n");
                      AddressSpace mem(p);
                      const uint64_t in = mem.allocate(n * 4), out = mem.allocate(n * 4);
                      KernelLaunch k;
                      k.grid = grid_for(n);
                      k.block = {kBlock, 1, 1};
                      k.registers_per_thread = 16;
                      k.parameters = ParamPacker().add(in).add(out).add(int32_t(n)).bytes();
                      return k;
                    }});
  models.push_back({"saxpy", "streaming", "y[i] = a * x[i] + y[i] over n floats", "7w_saxpyE",
                    {{"n", 1 << 24, "elements"}},
                    [](const Params& p) {
                      const int64_t n = p.get("n");
                      AddressSpace mem(p);
                      const uint64_t x = mem.allocate(n * 4), y = mem.allocate(n * 4);
                      KernelLaunch k;
                      k.grid = grid_for(n);
                      k.block = {kBlock, 1, 1};
                      k.registers_per_thread = 16;
                      k.parameters =
                          ParamPacker().add(1.5f).add(x).add(y).add(int32_t(n)).bytes();
                      return k;
                    }});
  models.push_back({"strided_copy", "streaming", "out[i] = in[i * stride] over n output floats",
                    "14w_strided_copyE",
                    {{"n", 1 << 21, "output elements"}, {"stride", 1, "input stride, elements"}},
                    [](const Params& p) {
                      const int64_t n = p.get("n"), stride = p.get("stride");
                      AddressSpace mem(p);
                      const uint64_t in = mem.allocate(n * stride * 4), out = mem.allocate(n * 4);
                      KernelLaunch k;
                      k.grid = grid_for(n);
                      k.block = {kBlock, 1, 1};
                      k.registers_per_thread = 16;
                      k.parameters = ParamPacker()
                                         .add(in)
                                         .add(out)
                                         .add(int32_t(n))
                                         .add(int32_t(stride))
                                         .bytes();
                      return k;
                    }});
  return models;
}

}  // namespace warpsim::workloads
