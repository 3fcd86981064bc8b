// FlashAttention forward at seq 2048 with 4 and 12 heads besides the twin's own points: 128 CTAs
// (one per SM) and 384 (three per SM, one wave), to see how the L2 request coalescer's joins change
// when CTAs of other heads share the SMs (the twin's 32 heads run 1024 CTAs in 2.6 waves). Built
// with workloads/cuda/twins.cu (its `list` and `run`); flash_heads.sh profiles it.
#include "../../../workloads/cuda/flash_attention.cu"

namespace {
const twins::Register kHeads({attention_point(4, 2048), attention_point(12, 2048)});
}  // namespace
