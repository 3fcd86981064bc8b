// Compression of .wstrace chunks with libzstd: one zstd frame per chunk, holding one
// length-delimited protobuf message. Contexts are kept and reused, so steady-state compression and
// decompression allocate nothing beyond the output buffer's growth. Decompression refuses frames
// that do not declare their size, declare more than kMaxChunkBytes, are truncated or corrupt, and
// throws InputError naming `where`; it never crashes or loops on bad input.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include <google/protobuf/message_lite.h>

namespace warpsim::traces::wstrace {

/// Largest decoded chunk accepted (a CTA of 32 warps × 1M instructions is far below it).
inline constexpr uint64_t kMaxChunkBytes = uint64_t{1} << 30;

/// Serialises messages as length-delimited records and compresses them into zstd frames.
class ChunkCompressor {
 public:
  explicit ChunkCompressor(int level = 3);
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  /// One zstd frame holding `message` length-delimited; valid until the next call. `raw_bytes`
  /// receives the decoded size.
  std::span<const char> compress(const google::protobuf::MessageLite& message,
                                 uint64_t* raw_bytes = nullptr);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
  std::string raw_;
  std::string frame_;
};

/// Decompresses zstd frames and parses the length-delimited message inside.
class ChunkDecompressor {
 public:
  ChunkDecompressor();
  ~ChunkDecompressor();
  ChunkDecompressor(const ChunkDecompressor&) = delete;
  ChunkDecompressor& operator=(const ChunkDecompressor&) = delete;

  /// Parses the single message of `frame` into `message`. Throws InputError naming `where` when
  /// the frame or the record inside is truncated or corrupt.
  void decompress(std::span<const char> frame, const std::string& where,
                  google::protobuf::MessageLite& message);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
  std::string raw_;
};

}  // namespace warpsim::traces::wstrace
