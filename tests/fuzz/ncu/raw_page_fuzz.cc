// libFuzzer target: the ncu CSV raw-page reader (with its number, unit and instance parsing) must
// reject any input with InputError, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arch/error.h"
#include "traces/ncu/raw_page.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto page = warpsim::traces::ncu::parse_raw_page(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    for (const auto& record : page.records) {
      for (const auto& [column, text] : record.values) {
        (void)record.number(column);
        (void)record.instanced(column);
      }
    }
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
