// Fixture paths and hand-made profiles for the replay tests.
#pragma once

#include <cstdlib>
#include <string>

#include "traces/ncu/profile.h"

namespace warpsim::replay::testing {

inline std::string source_dir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir ? dir : ".";
}

inline std::string shared_stride_dir() {
  return source_dir() + "/../shared/fixtures/ncu/h200-shared-stride/";
}

/// A measured instruction of a hand-made listing.
inline traces::ncu::PcProfile pc(uint64_t offset, const std::string& sass, double warp_insts,
                                 traces::ncu::PcSpace space = traces::ncu::PcSpace::kNone,
                                 double sectors = 0) {
  traces::ncu::PcProfile e;
  e.offset = offset;
  e.sass = sass;
  e.opcode = sass.substr(0, sass.find(' '));
  e.warp_insts = warp_insts;
  e.thread_insts = warp_insts * 32;
  e.pred_on_threads = warp_insts * 32;
  e.space = space;
  e.is_store = sass.starts_with("ST");
  e.l2_sectors = sectors;
  e.l2_sectors_ideal = sectors;
  return e;
}

}  // namespace warpsim::replay::testing
