// Whether the L2 request coalescer joins reads from SMs of different GPCs. Every earlier LRC probe
// had its readers in one GPC or in crowds where a coalescer per GPC and one per L2 partition join
// the same counts (lrc_crowd.cu: 8 readers in one GPC, then pairs of TPCs elsewhere). Two parts:
//   placement: launches grids of thread-block clusters (2, 4, 8 and 16 CTAs, one CTA per SM),
//     which the hardware keeps within one GPC, and prints each CTA's SM; SMs that share a cluster
//     share a GPC.
//   readers: lrc_crowd.cu's reads (512 lines from DRAM, 8 in flight, ld.global.cg) by one warp on
//     each SM of a chosen set, all started together; ncu counts the coalesced and looked-up read
//     sectors per launch (lrc_gpc.sh). Sets: SMs of one TPC, of one GPC, of different GPCs next
//     to the same L2 partition (validate/reference/h200/sm_partition.tsv), and of the two
//     partitions.
// Output (stdout, TSV): placement rows "cluster size launch cta sm", then reader rows
// "set readers reader sm start_ns end_ns cycles".
//
// Build: nvcc -O3 -arch=sm_90 -o lrc_gpc lrc_gpc.cu
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "clock_probe.cuh"
#include "lrc_reads.cuh"

namespace {

constexpr int kMaxReaders = 8;

// Reader sets (SM ids). 124-131 and 0, 1, 8-13, 16, 17, 24-29, 32, 33, 40-45, 48, 49, 56-61, 70,
// 71 lie next to one L2 partition; 2 and 3 next to the other.
const std::vector<std::vector<int>> kSets = {
    {124, 125}, {124, 126}, {124, 130}, {0, 8},  {16, 24},        {124, 0},
    {124, 16},  {0, 16},    {0, 32},    {0, 48}, {124, 70},       {124, 2},
    {0, 1, 8, 9}, {0, 1, 16, 17}, {0, 16, 32, 48}, {124, 0, 16, 32},
    // Which GPC the lone TPCs 120-121 (next to the first partition) and 122-123 (the second) join.
    {120, 0},   {120, 8},   {120, 10},  {120, 12}, {122, 2},        {122, 4},
    {122, 6},   {122, 14}};

__global__ void placement(unsigned long long* out, long long spin) {
  if (threadIdx.x == 0) out[blockIdx.x] = sm_id();
  const long long begin = stamp();
  while (stamp() - begin < spin) {
  }
}

__global__ void probe_readers(const float* buf, const int* readers, int k, volatile int* arrived,
                              float* sink, unsigned long long* out) {
  extern __shared__ int hold[];
  const unsigned sm = sm_id();
  int reader = -1;
  for (int i = 0; i < k; ++i)
    if (readers[i] == static_cast<int>(sm)) reader = i;
  if (reader < 0) return;
  read_together(buf, reader, k, sm, arrived, sink, out, hold);
}

void run_placement(int sms, int hold) {
  TWIN_CHECK(cudaFuncSetAttribute(placement, cudaFuncAttributeMaxDynamicSharedMemorySize, hold));
  TWIN_CHECK(cudaFuncSetAttribute(placement, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  unsigned long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&out, sizeof(unsigned long long) * sms));
  std::vector<unsigned long long> host(sms);
  std::printf("cluster\tsize\tlaunch\tcta\tsm\n");
  for (int size : {2, 4, 8, 16}) {
    for (int launch = 0; launch < 3; ++launch) {
      const int ctas = sms / size * size;
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(ctas);
      config.blockDim = dim3(32);
      config.dynamicSmemBytes = hold;
      cudaLaunchAttribute cluster;
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = size;
      cluster.val.clusterDim.y = 1;
      cluster.val.clusterDim.z = 1;
      config.attrs = &cluster;
      config.numAttrs = 1;
      TWIN_CHECK(cudaLaunchKernelEx(&config, placement, out, 200000LL));
      TWIN_CHECK(cudaDeviceSynchronize());
      TWIN_CHECK(cudaMemcpy(host.data(), out, sizeof(unsigned long long) * ctas,
                            cudaMemcpyDeviceToHost));
      for (int c = 0; c < ctas; ++c)
        std::printf("cluster\t%d\t%d\t%d\t%llu\n", size, launch, c, host[c]);
    }
  }
  cudaFree(out);
}

void run_readers(int sms, int hold) {
  TWIN_CHECK(cudaFuncSetAttribute(probe_readers, cudaFuncAttributeMaxDynamicSharedMemorySize, hold));
  ProbeBuffers b(1, 4 * kMaxReaders);
  int* readers = nullptr;
  TWIN_CHECK(cudaMalloc(&readers, sizeof(int) * kMaxReaders));
  static unsigned long long host[4 * kMaxReaders];
  std::printf("set\treaders\treader\tsm\tstart_ns\tend_ns\tcycles\n");
  for (int repeat = 0; repeat < 2; ++repeat) {
    for (size_t s = 0; s < kSets.size(); ++s) {
      const std::vector<int>& set = kSets[s];
      const int k = static_cast<int>(set.size());
      std::string name;
      for (int sm : set) name += (name.empty() ? "" : ",") + std::to_string(sm);
      TWIN_CHECK(cudaMemcpy(readers, set.data(), sizeof(int) * k, cudaMemcpyHostToDevice));
      TWIN_CHECK(cudaMemset(b.flags, 0, sizeof(int)));
      probe_readers<<<sms, 32, hold>>>(b.buf, readers, k, b.flags, b.sink, b.out);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaMemcpy(host, b.out, sizeof(unsigned long long) * 4 * k,
                            cudaMemcpyDeviceToHost));
      for (int r = 0; r < k; ++r)
        std::printf("%zu\t%s\t%d\t%llu\t%llu\t%llu\t%llu\n", s, name.c_str(), r, host[r * 4],
                    host[r * 4 + 1], host[r * 4 + 2], host[r * 4 + 3]);
    }
  }
  cudaFree(readers);
}

}  // namespace

int main(int argc, char** argv) {
  int sms = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int hold = 120 << 10;  // one CTA per SM
  if (argc > 1 && std::strcmp(argv[1], "placement") == 0) {
    run_placement(sms, hold);
  } else {
    run_readers(sms, hold);
  }
  return 0;
}
