#include "traces/ncu/report.h"

#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "arch/error.h"
#include "traces/ncu/wire_reader.h"

namespace warpsim::traces::ncu {
namespace {

using wire::CodedInputStream;
using wire::FieldReader;
using wire::kMaxReportBytes;
using wire::Span;
using wire::fail;

ReportValue read_value(Span span, const std::string& source) {
  ReportValue v;
  FieldReader r(span, source, "a Value");
  while (r.next()) {
    switch (r.field()) {
      case 1:
        v.kind = ReportValue::Kind::kString;
        v.text = r.string();
        break;
      case 2:
        v.kind = ReportValue::Kind::kFloat;
        v.number = r.fixed32_float();
        break;
      case 3:
        v.kind = ReportValue::Kind::kDouble;
        v.number = r.fixed64_double();
        break;
      case 4:
        v.kind = ReportValue::Kind::kUint32;
        v.integer = r.varint();
        break;
      case 5:
        v.kind = ReportValue::Kind::kUint64;
        v.integer = r.varint();
        break;
      default:
        r.skip();
    }
  }
  return v;
}

Dim3 read_dim3(Span span, const std::string& source) {
  Dim3 d{1, 1, 1};
  FieldReader r(span, source, "a launch dimension");
  while (r.next()) {
    const int f = r.field();
    if (f < 1 || f > 3) {
      r.skip();
      continue;
    }
    const uint64_t v = r.varint();
    if (v > UINT32_MAX) fail(source, r.offset(), "launch dimension out of range");
    (f == 1 ? d.x : f == 2 ? d.y : d.z) = static_cast<uint32_t>(v);
  }
  return d;
}

// State carried over the blocks: the string table grows, sources are kept by id.
struct Decoder {
  const std::string& source;
  std::vector<std::string> strings;
  std::map<uint64_t, std::pair<std::shared_ptr<const std::string>, uint32_t>> sources;
};

void read_metric(Span span, Decoder& d, ReportKernel& kernel) {
  FieldReader r(span, d.source, "a MetricResult");
  std::optional<uint64_t> name_id;
  ReportMetric metric;
  while (r.next()) {
    switch (r.field()) {
      case 1:
        name_id = r.varint();
        break;
      case 2:
        metric.value = read_value(r.bytes(), d.source);
        break;
      case 3: {
        MetricInstance inst;
        FieldReader ir(r.bytes(), d.source, "a metric instance");
        while (ir.next()) {
          if (ir.field() == 1) {
            inst.key = read_value(ir.bytes(), d.source);
          } else if (ir.field() == 2) {
            inst.value = read_value(ir.bytes(), d.source);
          } else {
            ir.skip();
          }
        }
        metric.instances.push_back(std::move(inst));
        break;
      }
      default:
        r.skip();
    }
  }
  if (!name_id) fail(d.source, span.offset, "a MetricResult without a name id (field 1)");
  if (*name_id >= d.strings.size()) {
    fail(d.source, span.offset,
         "metric name id " + std::to_string(*name_id) + " beyond the string table (" +
             std::to_string(d.strings.size()) + " strings)");
  }
  kernel.metrics.insert_or_assign(d.strings[*name_id], std::move(metric));
}

uint64_t read_source_ref(Span span, const std::string& source) {
  FieldReader r(span, source, "a source reference");
  uint64_t id = 0;
  while (r.next()) {
    if (r.field() == 1) {
      id = r.varint();
    } else {
      r.skip();
    }
  }
  return id;
}

void read_source_data(Span span, Decoder& d) {
  FieldReader r(span, d.source, "a SourceData");
  uint64_t id = 0;
  std::string binary;
  uint32_t sm = 0;
  while (r.next()) {
    if (r.field() == 1) {
      id = r.varint();
    } else if (r.field() == 4) {
      binary = r.string();
    } else if (r.field() == 6) {
      const uint64_t v = r.varint();  // 0x90000 for sm_90: major << 16 | minor << 12.
      sm = static_cast<uint32_t>((v >> 16) & 0xFF) * 10 + static_cast<uint32_t>((v >> 12) & 0xF);
    } else {
      r.skip();
    }
  }
  d.sources[id] = {
      binary.empty() ? nullptr : std::make_shared<const std::string>(std::move(binary)), sm};
}

ReportKernel read_result(Span span, Decoder& d) {
  ReportKernel k;
  FieldReader r(span, d.source, "a ProfileResult");
  std::optional<uint64_t> source_id;
  while (r.next()) {
    switch (r.field()) {
      case 4:
        k.id = r.varint();
        break;
      case 5:
        k.mangled_name = r.string();
        break;
      case 6:
        k.function_name = r.string();
        break;
      case 7:
        k.demangled_name = r.string();
        break;
      case 10:
        k.grid = read_dim3(r.bytes(), d.source);
        break;
      case 11:
        k.block = read_dim3(r.bytes(), d.source);
        break;
      case 13:
        read_metric(r.bytes(), d, k);
        break;
      case 15:
        source_id = read_source_ref(r.bytes(), d.source);
        break;
      case 22:
        k.context_id = r.varint();
        break;
      case 23:
        k.stream_id = r.varint();
        break;
      default:
        r.skip();
    }
  }
  if (source_id) {
    const auto it = d.sources.find(*source_id);
    if (it != d.sources.end()) {
      k.cubin = it->second.first;
      k.sm_version = it->second.second;
    }
  }
  return k;
}

// Reads a little-endian u32 length and the message after it.
Span framed(const std::string_view bytes, size_t& pos, const std::string& source,
            const char* what) {
  if (bytes.size() - pos < 4) fail(source, pos, std::string("expected the u32 length of ") + what);
  uint32_t length = 0;
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data() + pos), 4);
  in.ReadLittleEndian32(&length);
  pos += 4;
  if (length > bytes.size() - pos) {
    fail(source, pos,
         std::string("expected ") + what + " of " + std::to_string(length) +
             " bytes, the file ends after " + std::to_string(bytes.size() - pos));
  }
  const Span s{reinterpret_cast<const uint8_t*>(bytes.data() + pos), length, pos};
  pos += length;
  return s;
}

Report parse_plain(std::string_view bytes, const std::string& source) {
  if (bytes.size() > kMaxReportBytes) {
    fail(source, 0, "expected at most " + std::to_string(kMaxReportBytes) + " bytes");
  }
  if (bytes.size() < 4 || bytes.substr(0, 4) != std::string_view("NVR\0", 4)) {
    fail(source, 0, "expected an Nsight Compute report (the bytes \"NVR\\0\")");
  }
  Report report;
  report.source = source;
  Decoder d{source, {}, {}};
  size_t pos = 4;
  FieldReader header(framed(bytes, pos, source, "the file header"), source, "the file header");
  while (header.next()) {
    if (header.field() == 1) {
      report.version = static_cast<uint32_t>(header.varint());
    } else {
      header.skip();
    }
  }
  while (pos < bytes.size()) {
    uint64_t num_sources = 0, num_results = 0, payload = 0;
    FieldReader block(framed(bytes, pos, source, "a block header"), source, "a block header");
    while (block.next()) {
      switch (block.field()) {
        case 1:
          num_sources = block.varint();
          break;
        case 2:
          num_results = block.varint();
          break;
        case 4: {
          FieldReader table(block.bytes(), source, "the string table");
          while (table.next()) {
            if (table.field() == 1) {
              d.strings.push_back(table.string());
            } else {
              table.skip();
            }
          }
          break;
        }
        case 5:
          payload = block.varint();
          break;
        default:
          block.skip();
      }
    }
    if (payload > bytes.size() - pos) {
      fail(source, pos,
           "expected a block payload of " + std::to_string(payload) +
               " bytes, the file ends after " + std::to_string(bytes.size() - pos));
    }
    const std::string_view body = bytes.substr(0, pos + payload);
    size_t at = pos;
    for (uint64_t i = 0; i < num_sources + num_results; ++i) {
      const Span m = framed(body, at, source, i < num_sources ? "a SourceData" : "a ProfileResult");
      if (i < num_sources) {
        read_source_data(m, d);
      } else {
        report.kernels.push_back(read_result(m, d));
      }
    }
    pos += payload;  // Messages after the results (if any) are skipped.
  }
  return report;
}

}  // namespace

std::optional<double> ReportValue::as_double() const {
  switch (kind) {
    case Kind::kFloat:
    case Kind::kDouble:
      return number;
    case Kind::kUint32:
    case Kind::kUint64:
      return static_cast<double>(integer);
    default:
      return std::nullopt;
  }
}

std::string ReportValue::to_string() const {
  if (kind == Kind::kString) return text;
  if (kind == Kind::kUint32 || kind == Kind::kUint64) return std::to_string(integer);
  if (kind == Kind::kNone) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", number);
  return buf;
}

const ReportMetric* ReportKernel::metric(std::string_view name) const {
  const auto it = metrics.find(name);
  return it == metrics.end() ? nullptr : &it->second;
}

std::optional<double> ReportKernel::number(std::string_view name) const {
  const ReportMetric* m = metric(name);
  return m ? m->value.as_double() : std::nullopt;
}

std::string ncu_display_name(std::string_view demangled) {
  std::string out;
  out.reserve(demangled.size());
  for (size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == '(' && i > 0 && (demangled[i - 1] == '<' || demangled[i - 1] == ' ')) {
      const size_t close = demangled.find(')', i);
      const bool literal_follows =
          close != std::string_view::npos && close + 1 < demangled.size() &&
          (std::isdigit(static_cast<unsigned char>(demangled[close + 1])) ||
           demangled[close + 1] == '-');
      if (literal_follows &&
          demangled.substr(i + 1, close - i - 1).find_first_of("(<,") == std::string_view::npos) {
        i = close;
        continue;
      }
    }
    out += c;
  }
  return out;
}

bool looks_like_ncu_report(std::string_view bytes) {
  return bytes.starts_with(std::string_view("NVR\0", 4)) ||
         bytes.starts_with(std::string_view("\x28\xB5\x2F\xFD", 4));
}

Report parse_ncu_report(std::string_view bytes, const std::string& source) {
  if (!bytes.starts_with(std::string_view("\x28\xB5\x2F\xFD", 4)))
    return parse_plain(bytes, source);
  namespace io = boost::iostreams;
  std::string plain;
  try {
    io::filtering_istream in;
    in.push(io::zstd_decompressor());
    in.push(io::array_source(bytes.data(), bytes.size()));
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
      plain.append(chunk, static_cast<size_t>(in.gcount()));
      if (plain.size() > kMaxReportBytes) {
        throw InputError(source + ": decompresses to more than " + std::to_string(kMaxReportBytes) +
                         " bytes, the most a report may hold");
      }
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(source + ": not a valid zstd stream (" + e.what() + ")");
  }
  return parse_plain(plain, source);
}

Report load_ncu_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading");
  std::stringstream s;
  s << in.rdbuf();
  return parse_ncu_report(s.str(), path);
}

}  // namespace warpsim::traces::ncu
