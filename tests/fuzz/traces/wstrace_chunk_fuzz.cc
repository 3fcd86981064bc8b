// libFuzzer target: one .wstrace CTA chunk (a zstd frame holding a length-delimited CtaProto)
// decompressed and decoded into the IR against a 16-opcode table of warp size 32.
#include <cstddef>
#include <cstdint>
#include <span>

#include "arch/error.h"
#include "traces/wstrace/cta_codec.h"
#include "traces/wstrace/zstd_chunk.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace warpsim::traces;
  static wstrace::ChunkDecompressor decompressor;
  static wstrace::CtaProto proto;
  CtaTrace cta;
  try {
    decompressor.decompress(std::span<const char>(reinterpret_cast<const char*>(data), size),
                            "fuzz chunk", proto);
    wstrace::decode_cta(proto, 32, 16, "fuzz chunk", cta);
  } catch (const warpsim::InputError&) {
  }
  return 0;
}
