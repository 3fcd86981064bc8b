// libFuzzer target: one Accel-Sim .traceg file (header and CTAs) through TracegReader, and each
// CTA read written back with the Accel-Sim formatter. Only InputError may come out.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "arch/error.h"
#include "traces/accelsim/accelsim_writer.h"
#include "traces/accelsim/traceg_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpsim::traces;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    accelsim::TracegReader reader(in, "fuzz.traceg");
    const KernelInfo kernel = reader.read_header(nullptr);
    CtaTrace cta;
    std::string text;
    while (reader.next_cta(cta)) {
      text.clear();
      accelsim::format_traceg_cta(kernel, accelsim::writer_version(kernel), cta, text);
    }
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
