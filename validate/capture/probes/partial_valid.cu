// Probe of what a 4-byte store costs the L2 when its sector is already complete (every byte
// valid) against when it is not: the one-sector stores of partial_scatter.cu (words 8: every
// sector completed by 8 instructions, each storing 4 bytes into one sector of 32 lines) over MB
// megabytes, after l2_sequences.cuh's settle (the L2 full of clean lines that no probe touches):
//   scatter8/MB        onto lines not in the L2: every store finds its sector written in part
//                      or not at all (the partial-write probes' case);
//   read_scatter8/MB   the MB read first (probe_read): every sector is in the L2, complete, clean;
//   write_scatter8/MB  the MB written whole first (probe_write): complete and dirty.
// The scatter launch's cycles give the cost of a 4-byte store into a complete sector beside one
// into a sector written in part (l2.partial_write_cycles, partial_write_request_cycles). Profile
// with one-pass DRAM metrics and --cache-control none, so that each kernel sees what the previous
// one left:
//   partial_valid.sh > validate/reference/h200/partial_valid.tsv
// `partial_valid list` prints one line per profiled launch, in launch order (sequence, kernel, MB).
#include "l2_sequences.cuh"
#include "partial_kernels.cuh"

namespace {

using namespace l2seq;

std::vector<Sequence> sequences() {
  std::vector<Sequence> s;
  for (size_t mb : {4, 8, 16}) {
    const std::string m = std::to_string(mb);
    s.push_back({"scatter8/" + m, {{"scatter", mb}}});
    s.push_back({"read_scatter8/" + m, {{"read", mb}, {"scatter", mb}}});
    s.push_back({"write_scatter8/" + m, {{"write", mb}, {"scatter", mb}}});
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seqs = sequences();  // steps: "read", "write" or "scatter"
  if (list_requested(argc, argv, seqs, "probe_")) return 0;
  float4* target = zeroed(16 * kMB);
  run_sequences(seqs, [&](const Step& st, size_t n, float* sink) {
    if (st.kernel == "read") probe_read<<<kCtas, kThreads>>>(target, n, sink);
    if (st.kernel == "write") probe_write<<<kCtas, kThreads>>>(target, n);
    // n counts 16-byte elements: one-sector stores (8 per sector) are 4 n.
    if (st.kernel == "scatter") {
      float* p = reinterpret_cast<float*>(target);
      partial_kernels::probe_scatter<<<kCtas, kThreads>>>(p, n * 4, 8);
    }
  });
  return 0;
}
