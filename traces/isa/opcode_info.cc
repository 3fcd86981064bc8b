#include "traces/isa/opcode_info.h"

namespace warpsim::traces {

std::string_view mem_space_name(MemSpace space) {
  switch (space) {
    case MemSpace::kNone:
      return "none";
    case MemSpace::kGlobal:
      return "global";
    case MemSpace::kShared:
      return "shared";
    case MemSpace::kLocal:
      return "local";
    case MemSpace::kConstant:
      return "constant";
    case MemSpace::kGeneric:
      return "generic";
    case MemSpace::kTexture:
      return "texture";
    case MemSpace::kSurface:
      return "surface";
    case MemSpace::kGlobalToShared:
      return "global_to_shared";
    case MemSpace::kSharedToGlobal:
      return "shared_to_global";
    case MemSpace::kTensorMemory:
      return "tensor_memory";
  }
  return "unknown";
}

std::string_view access_kind_name(AccessKind kind) {
  switch (kind) {
    case AccessKind::kNone:
      return "none";
    case AccessKind::kLoad:
      return "load";
    case AccessKind::kStore:
      return "store";
    case AccessKind::kAtomic:
      return "atomic";
    case AccessKind::kReduction:
      return "reduction";
    case AccessKind::kPrefetch:
      return "prefetch";
  }
  return "unknown";
}

}  // namespace warpsim::traces
