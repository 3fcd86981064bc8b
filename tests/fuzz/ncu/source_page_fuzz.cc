// libFuzzer target: the ncu CSV source-page reader must reject any input with InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arch/error.h"
#include "traces/ncu/source_page.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto page = warpsim::traces::ncu::parse_source_page(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    for (const auto& kernel : page.kernels) {
      for (const auto& row : kernel.rows) (void)kernel.number(row, "Instructions Executed");
    }
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
