// libFuzzer target: a whole .wstrace file (written to a temporary file, since WstraceFile reads
// with pread): trailer, header, index, then every CTA in order. Input starting with 'H': the rest
// is a raw TraceHeader record, wrapped here into a well-formed file (magic, zstd frame, trailer)
// so that mutations reach the header and index checks instead of stopping at zstd's checksum.
#include <unistd.h>
#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include <google/protobuf/stubs/logging.h>

#include "arch/error.h"
#include "traces/wstrace/wstrace_format.h"
#include "traces/wstrace/wstrace_reader.h"

namespace {

std::string wrap_header(const uint8_t* data, size_t size) {
  using namespace warpsim::traces::wstrace;
  std::string record;
  uint64_t length = size;
  do {
    record += static_cast<char>((length & 0x7F) | (length > 0x7F ? 0x80 : 0));
    length >>= 7;
  } while (length != 0);
  record.append(reinterpret_cast<const char*>(data), size);
  std::string frame(ZSTD_compressBound(record.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), record.data(), record.size(), 1));
  std::string file(kFileMagic, kMagicBytes);
  file += frame;
  char trailer[kTrailerBytes];
  put_u64(trailer, kMagicBytes);
  put_u64(trailer + 8, frame.size());
  std::copy(kTrailerMagic, kTrailerMagic + kMagicBytes, trailer + 16);
  file.append(trailer, kTrailerBytes);
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);  // invalid UTF-8
  (void)quiet;
  static const std::string path =
      "/tmp/warpsim_wstrace_fuzz_" + std::to_string(::getpid()) + ".wstrace";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (size > 0 && data[0] == 'H') {
      const std::string file = wrap_header(data + 1, size - 1);
      out.write(file.data(), static_cast<std::streamsize>(file.size()));
    } else {
      out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
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
