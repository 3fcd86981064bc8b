// Probe of what the L2 keeps when a stream of reads goes through it: lines read once, lines read
// twice, lines written, lines written and read again. Sequences of plain kernels (names start
// "probe_"), each after a settle that leaves the L2 full of clean lines; profile with one-pass
// DRAM metrics and --cache-control none (l2_reref.sh), so each kernel sees what the previous
// kernel of its sequence left. Each sequence ends by reading X again: its DRAM reads are the part
// of X that the stream of R MB evicted; the stream's DRAM writes are the dirty lines it evicted.
//   once/X/R          read X; read R MB of other lines; read X
//   twice/X/R         read X twice; read R; read X
//   dirty/X/R         write X; read R; read X
//   dirty_reread/X/R  write X; read X; read R; read X
//   once_copy/X/R     read X; copy R MB of other lines to R MB of others (reads and writes); read X
//   once_write/X/R    read X; write R MB of other lines (no reads); read X: the clean lines a
//                     stream of writes alone evicts (a row-wise kernel's output after its input)
//   dirty_copy/X/R    write X; copy R MB; read X
//   fused/X/R         one kernel writes X, then reads R MB (each thread its own share, all CTAs
//                     resident at once); read X: the written lines' fate when no kernel ends
//                     between the writes and the stream
// `l2_reref list` prints one line per profiled launch, in launch order (sequence, kernel, MB).
#include "l2_sequences.cuh"

namespace {

using namespace l2seq;

constexpr size_t kX = 16;  // MB of the lines whose fate the sequence follows

__global__ void probe_copy(const float4* __restrict__ from, float4* __restrict__ to, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    to[i] = from[i];
  }
}

// Writes X's n_x elements, then reads the stream's n_r: the same grid-stride shares as the separate
// kernels, one launch.
__global__ void probe_write_then_read(float4* x, size_t n_x, const float4* stream, size_t n_r,
                                      float* sink) {
  const size_t first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = first; i < n_x; i += step) x[i] = make_float4(1.0f, 2.0f, 3.0f, (float)i);
  float acc = 0.0f;
  for (size_t i = first; i < n_r; i += step) {
    const float4 v = stream[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 12345.0f) *sink = acc;
}

std::vector<Sequence> sequences() {
  const std::vector<std::pair<std::string, std::vector<std::string>>> kinds = {
      {"once", {"read_x"}},
      {"twice", {"read_x", "read_x"}},
      {"dirty", {"write_x"}},
      {"dirty_reread", {"write_x", "read_x"}},
      {"once_copy", {"read_x"}},
      {"dirty_copy", {"write_x"}},
      {"once_write", {"read_x"}},
  };
  std::vector<Sequence> s;
  for (const auto& [kind, before] : kinds) {
    const bool copy = kind.find("_copy") != std::string::npos;
    const bool write = kind.find("_write") != std::string::npos;
    for (size_t r : {8, 16, 24, 32, 48, 64}) {
      Sequence q{kind + "/" + std::to_string(kX) + "/" + std::to_string(r), {}};
      for (const auto& k : before) q.steps.push_back({k, kX});
      q.steps.push_back({copy ? "copy_stream" : write ? "write_stream" : "read_stream", r});
      q.steps.push_back({"read_x", kX});
      s.push_back(q);
    }
  }
  for (size_t r : {8, 16, 24, 32, 48, 64}) {
    s.push_back({"fused/" + std::to_string(kX) + "/" + std::to_string(r),
                 {{"write_x_read_stream", r}, {"read_x", kX}}});
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  // Steps: "read_x", "write_x", "read_stream", "copy_stream", "write_stream" or
  // "write_x_read_stream" (MB: R).
  const auto seqs = sequences();
  if (list_requested(argc, argv, seqs, "")) return 0;
  const size_t buffer_bytes = 64 * kMB;
  float4* x = zeroed(kX * kMB);
  float4* stream = zeroed(buffer_bytes);
  float4* out = zeroed(buffer_bytes);
  run_sequences(seqs, [&](const Step& st, size_t n, float* sink) {
    if (st.kernel == "write_x") probe_write<<<kCtas, kThreads>>>(x, n);
    if (st.kernel == "read_x") probe_read<<<kCtas, kThreads>>>(x, n, sink);
    if (st.kernel == "read_stream") probe_read<<<kCtas, kThreads>>>(stream, n, sink);
    if (st.kernel == "copy_stream") probe_copy<<<kCtas, kThreads>>>(stream, out, n);
    if (st.kernel == "write_stream") probe_write<<<kCtas, kThreads>>>(out, n);
    if (st.kernel == "write_x_read_stream") {
      probe_write_then_read<<<kCtas, kThreads>>>(x, kX * kMB / 16, stream, n, sink);
    }
  });
  return 0;
}
