// Probe of partial (byte-masked) sector writes into an L2 that is already full: do lines written
// in part leave sooner when the L2 must evict for them? partial_writes.cu and partial_scatter.cu
// start from an empty L2; here every sequence starts after l2_sequences.cuh's settle, which leaves
// the L2 full of clean lines, and some first write 32 MB of fresh lines (dirty). Profile with
// one-pass DRAM metrics and --cache-control none, so that each kernel sees what the previous one
// left:
//   partial/MB           one 4-byte store per sector over MB megabytes (probe_partial)
//   dirty_partial/MB     32 MB written (probe_write), then the same
//   scatter8/MB          every sector completed by 8 one-sector stores (probe_scatter, words 8)
//   dirty_scatter8/MB    32 MB written, then the same
//   partial_full.sh > validate/reference/h200/partial_full.tsv
// `partial_full list` prints one line per profiled launch, in launch order (sequence, kernel, MB).
#include "l2_sequences.cuh"
#include "partial_kernels.cuh"

namespace {

using namespace l2seq;

std::vector<Sequence> sequences() {
  std::vector<Sequence> s;
  for (size_t mb : {2, 4, 8, 16}) {
    s.push_back({"partial/" + std::to_string(mb), {{"partial", mb}}});
    s.push_back({"dirty_partial/" + std::to_string(mb), {{"write", 32}, {"partial", mb}}});
  }
  for (size_t mb : {4, 8, 16}) {
    s.push_back({"scatter8/" + std::to_string(mb), {{"scatter", mb}}});
    s.push_back({"dirty_scatter8/" + std::to_string(mb), {{"write", 32}, {"scatter", mb}}});
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seqs = sequences();  // steps: "write", "partial" or "scatter"
  if (list_requested(argc, argv, seqs, "probe_")) return 0;
  float4* written = zeroed(32 * kMB);
  float4* target = zeroed(16 * kMB);
  run_sequences(seqs, [&](const Step& st, size_t n, float*) {
    float* p = reinterpret_cast<float*>(target);
    if (st.kernel == "write") probe_write<<<kCtas, kThreads>>>(written, n);
    // n counts 16-byte elements: sectors are n / 2, one-sector stores (8 per sector) 4 n.
    if (st.kernel == "partial") partial_kernels::probe_partial<<<kCtas, kThreads>>>(p, n / 2, 1);
    if (st.kernel == "scatter") partial_kernels::probe_scatter<<<kCtas, kThreads>>>(p, n * 4, 8);
  });
  return 0;
}
