// Latency twins: lane 0's value is broadcast to a single warp that chases pointers through one
// random cycle (Sattolo's algorithm) over every 128-byte-spaced node of the footprint, for
// footprints sized to L1, L2 (within one partition, beyond it) and HBM. The walk takes
// clamp(4 x nodes, 16384, 1572864) hops, so small footprints are traversed many times (steady-state
// hits after the cold first pass) and large ones once (every hop a miss). A random order defeats
// prefetching; each node sits in its own 128-byte line.
#include <algorithm>
#include <vector>

#include "chase_chain.cuh"
#include "twins.cuh"

namespace {

constexpr size_t kNodeBytes = twins::kChaseNodeBytes;

__global__ void w_pointer_chase(const unsigned* __restrict__ chain, int hops, unsigned* sink) {
  unsigned idx = 0;
  for (int h = 0; h < hops; ++h) idx = chain[idx];
  if (threadIdx.x == 0) *sink = idx;
}

int hops_for(size_t footprint_bytes) {
  const size_t nodes = footprint_bytes / kNodeBytes;
  return static_cast<int>(std::clamp<size_t>(4 * nodes, 16384, 1572864));
}

twins::Point chase_point(size_t footprint_bytes) {
  const int hops = hops_for(footprint_bytes);
  return {"pointer_chase/footprint=" + std::to_string(footprint_bytes), "pointer_chase", "latency",
          "calibration",
          twins::kv("footprint_bytes", (long long)footprint_bytes) + ";" + twins::kv("hops", hops),
          [footprint_bytes, hops] {
            const std::vector<unsigned> host = twins::chase_chain(footprint_bytes);
            unsigned* chain = nullptr;
            unsigned* sink = nullptr;
            TWIN_CHECK(cudaMalloc(&chain, footprint_bytes));
            TWIN_CHECK(cudaMalloc(&sink, sizeof(unsigned)));
            TWIN_CHECK(cudaMemcpy(chain, host.data(), footprint_bytes, cudaMemcpyHostToDevice));
            twins::settle();
            w_pointer_chase<<<1, 32>>>(chain, hops, sink);
            twins::finish_launch("w_pointer_chase");
            cudaFree(chain);
            cudaFree(sink);
          }};
}

const twins::Register kPoints({
    chase_point(16 << 10), chase_point(128 << 10), chase_point(1 << 20), chase_point(8 << 20),
    chase_point(20 << 20), chase_point(32 << 20), chase_point(48 << 20), chase_point(128 << 20),
    chase_point(size_t{1} << 30),
});

}  // namespace
