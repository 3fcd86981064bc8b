// Probe of the L2's write-back behaviour: when does a GPU write dirty lines to DRAM?
// Sequences of plain kernels (names start "probe_"), each sequence after a settle that leaves the
// L2 full of clean lines. Profile with one-pass DRAM metrics and --cache-control none, so that a
// kernel sees the dirty lines the previous kernel of its sequence left:
//   write/W       writes W MB of fresh lines (write-back within a write stream)
//   write_read/W/R  writes W MB, then a second kernel reads R MB of other lines
//   read_write/R/W  reads R MB, then writes W MB (do dirty lines leave before older clean ones?)
//   idle/W        writes W MB, then a kernel that touches no memory for about 20 ms
// `dirty_l2 list` prints one line per profiled launch, in launch order (sequence, kernel, W, R).
#include "l2_sequences.cuh"

namespace {

using namespace l2seq;

__global__ void probe_idle(long long cycles, float* sink) {
  const long long start = clock64();
  float x = 1.0f;
  while (clock64() - start < cycles) x = x * 0.999f + 0.001f;
  if (x == 12345.0f) *sink = x;
}

std::vector<Sequence> sequences() {
  std::vector<Sequence> s;
  for (size_t w : {4, 8, 16, 24, 32, 40, 48, 64, 96, 128, 256}) {
    s.push_back({"write/" + std::to_string(w), {{"write", w}}});
  }
  for (size_t w : {16, 32}) {
    for (size_t r : {4, 8, 16, 24, 32, 48, 64, 96, 128, 256}) {
      s.push_back({"write_read/" + std::to_string(w) + "/" + std::to_string(r),
                   {{"write", w}, {"read", r}}});
    }
  }
  for (size_t r : {16, 32, 64}) {
    for (size_t w : {16, 32, 48}) {
      s.push_back({"read_write/" + std::to_string(r) + "/" + std::to_string(w),
                   {{"read", r}, {"write", w}}});
    }
  }
  s.push_back({"idle/16", {{"write", 16}, {"idle", 0}, {"read", 1}}});
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seqs = sequences();  // steps: "write", "read" or "idle"
  if (list_requested(argc, argv, seqs, "probe_")) return 0;
  const size_t buffer_bytes = 256 * kMB;
  float4* a = zeroed(buffer_bytes);
  float4* b = zeroed(buffer_bytes);
  run_sequences(seqs, [&](const Step& st, size_t n, float* sink) {
    if (st.kernel == "write") probe_write<<<kCtas, kThreads>>>(a, n);
    if (st.kernel == "read") probe_read<<<kCtas, kThreads>>>(b, n, sink);
    if (st.kernel == "idle") probe_idle<<<1, 32>>>(40'000'000LL, sink);
  });
  return 0;
}
