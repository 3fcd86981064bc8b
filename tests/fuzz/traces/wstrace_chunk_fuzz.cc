// libFuzzer target: one .wstrace CTA chunk decoded into the IR against a 16-opcode table of warp
// size 32. Input starting with 'R': the rest is a raw CtaProto (so mutations reach the decoder
// instead of stopping at zstd's checksum); otherwise the input is a zstd frame holding a
// length-delimited CtaProto, as in a file.
#include <cstddef>
#include <cstdint>
#include <span>

#include <google/protobuf/stubs/logging.h>

#include "arch/error.h"
#include "traces/wstrace/cta_codec.h"
#include "traces/wstrace/zstd_chunk.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpsim::traces;
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);  // invalid UTF-8
  (void)quiet;
  static wstrace::ChunkDecompressor decompressor;
  static wstrace::CtaProto proto;
  CtaTrace cta;
  try {
    if (size > 0 && data[0] == 'R') {
      if (!proto.ParseFromArray(data + 1, static_cast<int>(size - 1))) return 0;
    } else {
      decompressor.decompress(std::span<const char>(reinterpret_cast<const char*>(data), size),
                              "fuzz chunk", proto);
    }
    wstrace::decode_cta(proto, 32, 16, "fuzz chunk", cta);
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
