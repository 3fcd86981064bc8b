// libFuzzer target: bytes decompressed as .xz (Boost.Iostreams lzma, as AccelSimSource reads
// .traceg.xz) and parsed as a .traceg. Truncated or corrupt data must give InputError.
#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cstddef>
#include <cstdint>

#include "arch/error.h"
#include "traces/accelsim/traceg_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpsim::traces;
  boost::iostreams::filtering_istream in;
  in.push(boost::iostreams::lzma_decompressor());
  in.push(boost::iostreams::array_source(reinterpret_cast<const char*>(data), size));
  try {
    accelsim::TracegReader reader(in, "fuzz.traceg.xz");
    reader.read_header(nullptr);
    CtaTrace cta;
    while (reader.next_cta(cta)) {
    }
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
