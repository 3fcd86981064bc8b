// libFuzzer target: the reader of `warpsim validate --save-runs` files must reject any input with
// InputError, never crash; what it accepts must write back and read again to the same runs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "arch/error.h"
#include "validate/saved_runs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpsim::validate;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  SavedRuns runs;
  try {
    read_saved_runs(in, "fuzz.tsv", runs);
  } catch (const warpsim::InputError&) {
    return 0;
  }
  std::ostringstream out;
  write_saved_runs_header(out);
  for (const auto& [key, run] : runs) write_saved_run(out, key.first, key.second, run);
  std::istringstream again(out.str());
  SavedRuns reread;
  try {
    read_saved_runs(again, "rewritten.tsv", reread);
  } catch (const warpsim::InputError&) {
    std::abort();  // what was read must write back readable
  }
  return 0;
}
