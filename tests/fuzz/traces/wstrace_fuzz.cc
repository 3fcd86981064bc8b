// libFuzzer target: a whole .wstrace file (written to a temporary file, since WstraceFile reads
// with pread): trailer, header, index, then every CTA in order.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "arch/error.h"
#include "traces/wstrace/wstrace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path =
      "/tmp/warpsim_wstrace_fuzz_" + std::to_string(::getpid()) + ".wstrace";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    warpsim::traces::wstrace::WstraceSource source(path);
    warpsim::traces::KernelInfo kernel;
    warpsim::traces::CtaTrace cta;
    while (source.next_kernel(kernel)) {
      while (source.next_cta(cta)) {
      }
    }
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
