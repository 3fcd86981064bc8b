// libFuzzer target: a kernelslist.g through parse_kernel_list.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "arch/error.h"
#include "traces/accelsim/accelsim_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    warpsim::traces::accelsim::parse_kernel_list(in, "kernelslist.g", "/nonexistent");
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
