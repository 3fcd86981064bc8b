// Entry point of every benchmark program: the heap on transparent huge pages, as the `warpsim`
// command runs (sim/engine/huge_page_heap.h), then Google Benchmark's usual main.
#include <benchmark/benchmark.h>

#include "sim/engine/huge_page_heap.h"

int main(int argc, char** argv) {
  warpsim::engine::use_huge_page_heap(argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
