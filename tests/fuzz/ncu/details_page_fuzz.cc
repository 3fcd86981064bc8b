// libFuzzer target: the ncu CSV details-page reader must reject any input with InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arch/error.h"
#include "traces/ncu/details_page.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    warpsim::traces::ncu::parse_details_page(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
