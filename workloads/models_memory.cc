// Latency, transpose, reduction, row-wise and occupancy models (workloads/cuda/latency.cu,
// transpose.cu, reduction.cu, rowwise.cu, occupancy.cu). Registers and static shared memory per CTA are the compiled
// twins' (ncu launch__registers_per_thread, launch__shared_mem_per_block_static in
// validate/reference/h200/raw.csv).
#include <algorithm>
#include <map>
#include <memory>
#include <random>

#include "arch/error.h"
#include "workloads/listing_model.h"

namespace warpsim::workloads {
namespace {

constexpr uint64_t kNodeBytes = 128;

// The twin's chain: one random cycle (Sattolo) over the 128-byte nodes, seeded as the twin is, so
// the simulated addresses are the ones the GPU chased.
std::shared_ptr<std::vector<uint32_t>> chase_chain(uint64_t nodes) {
  auto next = std::make_shared<std::vector<uint32_t>>(nodes);
  for (uint64_t k = 0; k < nodes; ++k) (*next)[k] = static_cast<uint32_t>(k);
  std::mt19937_64 rng(42);
  for (size_t k = nodes - 1; k > 0; --k) {
    std::uniform_int_distribution<size_t> pick(0, k - 1);
    std::swap((*next)[k], (*next)[pick(rng)]);
  }
  return next;
}

ModelSpec transpose_model(std::string name, std::string description, std::string function,
                          uint32_t registers, uint32_t static_shared) {
  return {std::move(name), "transpose", std::move(description), std::move(function),
          {{"n", 2048, "matrix side (a multiple of 32)", 32},
           {"pitch", 0, "floats between rows in both matrices, at least n (0: n; the kernel's n "
                        "argument, as validate/capture/probes/transpose_pitch.cu launches it)", 0},
           {"rows", 0, "block rows of the grid, 32 input rows each (0: n / 32; as "
                       "transpose_pitch.cu launches the first rows of a transpose)", 0}},
          [registers, static_shared](const Params& p) {
            const int64_t n = p.get("n");
            if (n % 32 != 0) throw InputError("--param n=" + std::to_string(n) +
                                              ": the transpose side must be a multiple of 32");
            const int64_t pitch = p.get("pitch") == 0 ? n : p.get("pitch");
            if (pitch < n) {
              throw InputError("--param pitch=" + std::to_string(pitch) +
                               ": expected 0 or at least n=" + std::to_string(n));
            }
            const int64_t rows = p.get("rows") == 0 ? n / 32 : p.get("rows");
            if (rows > n / 32) {
              throw InputError("--param rows=" + std::to_string(rows) + ": expected 0 to n / 32 = " +
                               std::to_string(n / 32));
            }
            AddressSpace mem(p);
            const uint64_t in = mem.allocate(pitch * n * 4), out = mem.allocate(pitch * n * 4);
            KernelLaunch k;
            k.grid = {static_cast<uint32_t>(n / 32), static_cast<uint32_t>(rows), 1};
            k.block = {32, 8, 1};
            k.registers_per_thread = registers;
            k.static_shared_bytes = static_shared;
            k.parameters = ParamPacker().add(in).add(out).add(int32_t(pitch)).bytes();
            return k;
          }};
}

ModelSpec reduce_model(std::string name, std::string description, std::string function,
                       uint32_t static_shared) {
  return {std::move(name), "reduction", std::move(description), std::move(function),
          {{"n", 1 << 22, "elements"}, {"ctas", 528, "CTAs of 256 threads"}},
          [static_shared](const Params& p) {
            const int64_t n = p.get("n"), ctas = p.get("ctas");
            AddressSpace mem(p);
            const uint64_t in = mem.allocate(n * 4), out = mem.allocate(ctas * 4);
            KernelLaunch k;
            k.grid = {static_cast<uint32_t>(ctas), 1, 1};
            k.block = {256, 1, 1};
            k.registers_per_thread = 16;
            k.static_shared_bytes = static_shared;
            k.parameters = ParamPacker().add(in).add(out).add(int32_t(n)).bytes();
            return k;
          }};
}

// One CTA of 256 threads per row (workloads/cuda/rowwise.cu). `fast_path` maps the PCs of the
// branches around the compiler's division / reciprocal slow path to the predicate value that takes
// the fast path, as every point of the reference does (validate/reference/h200/source_sass.csv:
// the slow-path CALL executes 0 times).
ModelSpec rowwise_model(std::string name, std::string description, std::string function,
                        std::map<uint32_t, bool> fast_path) {
  return {std::move(name), "rowwise", std::move(description), std::move(function),
          {{"rows", 4096, "rows (one CTA of 256 threads each)"}, {"cols", 1024, "columns"}},
          [fast_path](const Params& p) {
            const int64_t rows = p.get("rows"), cols = p.get("cols");
            AddressSpace mem(p);
            const uint64_t in = mem.allocate(rows * cols * 4), out = mem.allocate(rows * cols * 4);
            KernelLaunch k;
            k.grid = {static_cast<uint32_t>(rows), 1, 1};
            k.block = {256, 1, 1};
            k.registers_per_thread = 32;
            k.static_shared_bytes = 32;
            k.parameters = ParamPacker().add(in).add(out).add(int32_t(cols)).bytes();
            k.assumed_predicates = fast_path;
            return k;
          }};
}

}  // namespace

std::vector<ModelSpec> memory_models() {
  std::vector<ModelSpec> models;
  models.push_back(
      {"pointer_chase", "latency",
       "one warp chases a random cycle of 128-byte nodes over the footprint",
       "15w_pointer_chaseE",
       {{"footprint_bytes", 16 << 20, "bytes spanned by the chain", 4096},
        {"hops", 0, "dependent loads; 0: clamp(4 x nodes, 16384, 1572864) as the twin", 0}},
       [](const Params& p) {
         const uint64_t footprint = static_cast<uint64_t>(p.get("footprint_bytes"));
         const uint64_t nodes = footprint / kNodeBytes;
         const int64_t hops = p.get("hops") != 0
                                  ? p.get("hops")
                                  : std::clamp<int64_t>(4 * nodes, 16384, 1572864);
         AddressSpace mem(p);
         const uint64_t chain = mem.allocate(footprint), sink = mem.allocate(4);
         auto next = chase_chain(nodes);
         KernelLaunch k;
         k.grid = {1, 1, 1};
         k.block = {32, 1, 1};
         k.registers_per_thread = 22;
         k.parameters = ParamPacker().add(chain).add(int32_t(hops)).add(sink).bytes();
         k.memory = [chain, footprint, next](uint64_t address) -> std::optional<uint32_t> {
           if (address < chain || address >= chain + footprint) return std::nullopt;
           const uint64_t word = (address - chain) / 4;
           constexpr uint64_t kStride = kNodeBytes / 4;
           return word % kStride == 0 ? (*next)[word / kStride] * kStride : 0;
         };
         return k;
       }});
  models.push_back(transpose_model("transpose_naive", "out[x][y] = in[y][x] straight from memory",
                                   "17w_transpose_naiveE", 16, 0));
  models.push_back(transpose_model("transpose_tile32",
                                   "through a shared float tile[32][32] (32-way conflicts)",
                                   "17w_transpose_tiledILi0EE", 28, 4096));
  models.push_back(transpose_model("transpose_tile33",
                                   "through a shared float tile[32][33] (conflict-free)",
                                   "17w_transpose_tiledILi1EE", 28, 4224));
  models.push_back(reduce_model("reduce_shared_tree", "grid-stride sum, then a shared-memory tree",
                                "20w_reduce_shared_treeE", 1024));
  models.push_back(reduce_model("reduce_warp_shuffle",
                                "grid-stride sum, then __shfl_down_sync within warps",
                                "21w_reduce_warp_shuffleE", 32));
  // softmax: 1/sum takes MUFU.RCP when the sum's exponent is in range (P0 true at 0x1e70).
  models.push_back(rowwise_model("softmax", "row softmax: max, sum of exponentials, scale",
                                 "9w_softmaxE", {{0x1e70, true}}));
  // layernorm: the two divisions by cols pass FCHK (P0 false at 0xa90 and 0x1630).
  models.push_back(rowwise_model("layernorm", "row layer normalisation: mean, variance, scale",
                                 "11w_layernormE", {{0xa90, false}, {0x1630, false}}));
  models.push_back(
      {"occupancy", "occupancy",
       "8 FFMA chains per thread with a shared-memory and a register budget",
       "11w_occupancyILi1EE",
       {{"min_ctas", 1, "__launch_bounds__ minimum CTAs per SM: 1, 4 or 8"},
        {"shared_bytes", 0, "dynamic shared memory per CTA (at least 1024 is used)", 0},
        {"ctas", 2112, "CTAs of 256 threads"}},
       [](const Params& p) {
         const int64_t min_ctas = p.get("min_ctas");
         if (min_ctas != 1 && min_ctas != 4 && min_ctas != 8) {
           throw InputError("--param min_ctas=" + std::to_string(min_ctas) +
                            ": the twin is compiled for 1, 4 or 8");
         }
         const int64_t ctas = p.get("ctas");
         AddressSpace mem(p);
         const uint64_t in = mem.allocate(ctas * 256 * 16), out = mem.allocate(ctas * 256 * 4);
         KernelLaunch k;
         k.grid = {static_cast<uint32_t>(ctas), 1, 1};
         k.block = {256, 1, 1};
         k.registers_per_thread = 18;
         k.dynamic_shared_bytes =
             static_cast<uint32_t>(std::max<int64_t>(p.get("shared_bytes"), 1024));
         k.parameters = ParamPacker().add(in).add(out).add(int32_t(128)).bytes();
         k.function = "11w_occupancyILi" + std::to_string(min_ctas) + "EE";
         return k;
       }});
  return models;
}

}  // namespace warpsim::workloads
