// libFuzzer target: the .ncu-rep / .ncu-repz reader must reject any input with InputError, never
// crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arch/error.h"
#include "traces/ncu/report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    warpsim::traces::ncu::parse_ncu_report(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.ncu-rep");
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
