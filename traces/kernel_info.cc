#include "traces/kernel_info.h"

#include "arch/error.h"

namespace warpsim::traces {
namespace {

constexpr uint64_t kMaxThreadsPerCta = 1024;

}  // namespace

void KernelInfo::validate(const std::string& where) const {
  const auto fail = [&](const std::string& field, const std::string& what) {
    throw InputError(where + ": kernel '" + name + "': " + field + ": " + what);
  };
  if (name.empty()) fail("name", "expected a kernel name");
  const auto positive = [&](const char* field, Dim3 d) {
    if (d.x == 0 || d.y == 0 || d.z == 0) {
      fail(field, "expected every dimension >= 1, got " + to_string(d));
    }
  };
  positive("grid", grid);
  positive("block", block);
  positive("cluster", cluster);
  if (block.volume() > kMaxThreadsPerCta) {
    fail("block", "expected at most 1024 threads per CTA, got " + std::to_string(block.volume()));
  }
  if (grid.x % cluster.x != 0 || grid.y % cluster.y != 0 || grid.z % cluster.z != 0) {
    fail("cluster",
         "grid " + to_string(grid) + " is not a multiple of the cluster " + to_string(cluster));
  }
  if (!opcodes) fail("opcodes", "expected an opcode table");
  if (opcodes->isa() != isa) {
    fail("opcodes", "opcode table is for " + std::string(isa_name(opcodes->isa())) +
                        " but the kernel is " + std::string(isa_name(isa)));
  }
}

}  // namespace warpsim::traces
