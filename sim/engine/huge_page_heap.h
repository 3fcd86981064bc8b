// The process heap on transparent huge pages. The simulator's state beyond the SMs (the L2 slices'
// tags, MSHRs, DRAM queues, ports) and the traces it reads live on glibc's heap, spread over
// thousands of 4 KiB pages that a tick touches in turn: the host's page walks are a large share
// of the time (`BM_GpuStreamingCopy`: 10-18 % faster with the heap on 2 MiB pages). glibc puts
// its heap on transparent huge pages when the tunable glibc.malloc.hugetlb=1 is set, which it
// reads at start-up only, so the entry points (the `warpsim` command, the benchmarks) call
// use_huge_page_heap() first: it re-executes the program with the tunable added to
// GLIBC_TUNABLES. Nothing else changes: results do not depend on where memory lies.
//
// Left alone: WARPSIM_HUGE_HEAP=0; a GLIBC_TUNABLES that already names the tunable (as after the
// re-execution); an LD_PRELOAD (a tool such as valgrind or a profiler wraps the program); a
// program started through the dynamic loader (`ld-linux-x86-64.so.2 program ...`); a host whose
// transparent huge pages are off; a failed exec (the program goes on as it is). glibc before
// 2.35 ignores the tunable.
#pragma once

#include <optional>
#include <string>

namespace warpsim::engine {

/// GLIBC_TUNABLES with glibc.malloc.hugetlb=1 added to `current` (nullptr: unset), or nullopt
/// when `current` already sets that tunable.
std::optional<std::string> huge_heap_tunables(const char* current);

/// Re-executes the program (/proc/self/exe with `argv`) with its heap on transparent huge pages,
/// unless one of the cases above holds; returns only when it does not re-execute.
void use_huge_page_heap(char** argv);

}  // namespace warpsim::engine
