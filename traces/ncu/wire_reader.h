// The protobuf wire format as an Nsight Compute report stores it: a reader over the fields of
// one message, by field number and wire type, handing nested messages back as zero-copy spans
// that remember their offset in the file, so that every error names the byte where the input
// stopped making sense. Used by report.cc only. Left out: groups (deprecated wire types 3 and 4
// are skipped as protobuf skips them), packed repeated fields, any schema.
#pragma once

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "arch/error.h"

namespace warpsim::traces::ncu::wire {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// protobuf's CodedInputStream addresses at most INT_MAX bytes.
constexpr size_t kMaxReportBytes = INT_MAX;

// A zero-copy view of one protobuf message inside the report, with its offset for messages.
struct Span {
  const uint8_t* data = nullptr;
  size_t size = 0;
  size_t offset = 0;  // In the (decompressed) file.
};

[[noreturn]] inline void fail(const std::string& source, size_t offset, const std::string& what) {
  throw InputError(source + ": byte " + std::to_string(offset) + ": " + what);
}

// Iterates the fields of one message; nested messages come back as Spans.
class FieldReader {
 public:
  FieldReader(Span span, const std::string& source, const char* message)
      : span_(span), in_(span.data, static_cast<int>(span.size)), source_(source), what_(message) {
    in_.SetTotalBytesLimit(INT_MAX);
  }

  // Advances to the next field; false at the end of the message.
  bool next() {
    tag_ = in_.ReadTag();
    if (tag_ == 0) {
      if (in_.CurrentPosition() != static_cast<int>(span_.size)) error("a field tag");
      return false;
    }
    if (field() == 0) error("a field number above 0");
    return true;
  }
  int field() const { return WireFormatLite::GetTagFieldNumber(tag_); }
  WireFormatLite::WireType wire() const { return WireFormatLite::GetTagWireType(tag_); }

  uint64_t varint() {
    expect(WireFormatLite::WIRETYPE_VARINT, "a varint");
    uint64_t v = 0;
    if (!in_.ReadVarint64(&v)) error("a varint");
    return v;
  }
  double fixed64_double() {
    expect(WireFormatLite::WIRETYPE_FIXED64, "a double");
    uint64_t v = 0;
    if (!in_.ReadLittleEndian64(&v)) error("8 bytes of a double");
    return WireFormatLite::DecodeDouble(v);
  }
  float fixed32_float() {
    expect(WireFormatLite::WIRETYPE_FIXED32, "a float");
    uint32_t v = 0;
    if (!in_.ReadLittleEndian32(&v)) error("4 bytes of a float");
    return WireFormatLite::DecodeFloat(v);
  }
  Span bytes() {
    expect(WireFormatLite::WIRETYPE_LENGTH_DELIMITED, "a length-delimited field");
    uint32_t length = 0;
    if (!in_.ReadVarint32(&length)) error("a length");
    const int at = in_.CurrentPosition();
    if (length > span_.size - static_cast<size_t>(at) || !in_.Skip(static_cast<int>(length))) {
      error("a field of " + std::to_string(length) + " bytes (the message ends first)");
    }
    return Span{span_.data + at, length, span_.offset + static_cast<size_t>(at)};
  }
  std::string string() {
    const Span s = bytes();
    return std::string(reinterpret_cast<const char*>(s.data), s.size);
  }
  void skip() {
    if (!WireFormatLite::SkipField(&in_, tag_)) error("a well-formed field to skip");
  }
  size_t offset() const { return span_.offset + static_cast<size_t>(in_.CurrentPosition()); }

 private:
  void expect(WireFormatLite::WireType type, const char* what) {
    if (wire() != type) error(std::string(what) + " in field " + std::to_string(field()));
  }
  [[noreturn]] void error(const std::string& expected) {
    fail(source_, offset(), "in " + std::string(what_) + ": expected " + expected);
  }

  Span span_;
  CodedInputStream in_;
  const std::string& source_;
  const char* what_;
  uint32_t tag_ = 0;
};

}  // namespace warpsim::traces::ncu::wire
