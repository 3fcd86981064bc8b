#include "traces/wstrace/zstd_chunk.h"

#include <zstd.h>

#include <algorithm>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "arch/error.h"

namespace warpsim::traces::wstrace {

struct ChunkCompressor::Context {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ~Context() { ZSTD_freeCCtx(cctx); }
};

struct ChunkDecompressor::Context {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ~Context() { ZSTD_freeDCtx(dctx); }
};

ChunkCompressor::ChunkCompressor(int level) : context_(std::make_unique<Context>()) {
  if (context_->cctx == nullptr) throw InternalError("wstrace: cannot create a zstd context");
  ZSTD_CCtx_setParameter(context_->cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context_->cctx, ZSTD_c_checksumFlag, 1);
}

ChunkCompressor::~ChunkCompressor() = default;

std::span<const char> ChunkCompressor::compress(const google::protobuf::MessageLite& message,
                                                uint64_t* raw_bytes) {
  const size_t body = message.ByteSizeLong();
  raw_.resize(body + 10);
  {
    google::protobuf::io::ArrayOutputStream array(raw_.data(), static_cast<int>(raw_.size()));
    google::protobuf::io::CodedOutputStream coded(&array);
    coded.WriteVarint32(static_cast<uint32_t>(body));
    message.SerializeWithCachedSizes(&coded);
    coded.Trim();
    raw_.resize(static_cast<size_t>(coded.ByteCount()));
  }
  if (raw_bytes != nullptr) *raw_bytes = raw_.size();
  frame_.resize(ZSTD_compressBound(raw_.size()));
  const size_t written = ZSTD_compress2(context_->cctx, frame_.data(), frame_.size(), raw_.data(),
                                        raw_.size());
  if (ZSTD_isError(written)) {
    throw InternalError(std::string("wstrace: zstd compression failed: ") +
                        ZSTD_getErrorName(written));
  }
  return {frame_.data(), written};
}

ChunkDecompressor::ChunkDecompressor() : context_(std::make_unique<Context>()) {
  if (context_->dctx == nullptr) throw InternalError("wstrace: cannot create a zstd context");
}

ChunkDecompressor::~ChunkDecompressor() = default;

void ChunkDecompressor::decompress(std::span<const char> frame, const std::string& where,
                                   google::protobuf::MessageLite& message) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    throw InputError(where + ": corrupt compressed chunk (not a zstd frame with a known size)");
  }
  if (size > kMaxChunkBytes) {
    throw InputError(where + ": corrupt compressed chunk (declares " + std::to_string(size) +
                     " bytes, more than the 1 GiB limit)");
  }
  // Grow the output as data actually comes out, so a forged size cannot make us allocate.
  ZSTD_DCtx_reset(context_->dctx, ZSTD_reset_session_only);
  raw_.resize(static_cast<size_t>(std::min<uint64_t>(size, 65536 + uint64_t{frame.size()} * 4)));
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  ZSTD_outBuffer out{raw_.data(), raw_.size(), 0};
  while (true) {
    const size_t in_before = in.pos;
    const size_t out_before = out.pos;
    const size_t status = ZSTD_decompressStream(context_->dctx, &out, &in);
    if (ZSTD_isError(status)) {
      throw InputError(where + ": corrupt compressed chunk (zstd: " + ZSTD_getErrorName(status) +
                       ")");
    }
    if (status == 0) break;  // frame complete
    if (out.pos == out.size && out.size < size) {
      raw_.resize(static_cast<size_t>(std::min<uint64_t>(size, uint64_t{raw_.size()} * 2)));
      out.dst = raw_.data();
      out.size = raw_.size();
    } else if (in.pos == in_before && out.pos == out_before) {
      throw InputError(where + (in.pos == in.size ? ": truncated compressed chunk"
                                                  : ": corrupt compressed chunk (no progress)"));
    }
  }
  if (out.pos != size || in.pos != in.size) {
    throw InputError(where + ": corrupt compressed chunk (size differs from the frame's)");
  }
  google::protobuf::io::CodedInputStream coded(reinterpret_cast<const uint8_t*>(raw_.data()),
                                               static_cast<int>(raw_.size()));
  uint32_t length = 0;
  if (!coded.ReadVarint32(&length) ||
      length != raw_.size() - static_cast<size_t>(coded.CurrentPosition())) {
    throw InputError(where + ": corrupt chunk (record length does not match the chunk)");
  }
  const auto limit = coded.PushLimit(static_cast<int>(length));
  if (!message.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    throw InputError(where + ": corrupt chunk (the record does not parse)");
  }
  coded.PopLimit(limit);
}

}  // namespace warpsim::traces::wstrace
