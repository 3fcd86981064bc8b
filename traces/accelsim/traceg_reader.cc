#include "traces/accelsim/traceg_reader.h"

#include "arch/error.h"

namespace warpsim::traces::accelsim {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

/// Splits "key = value" at the first '='; false when there is none.
bool split_key(std::string_view line, std::string_view& key, std::string_view& value) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) return false;
  key = trim(line.substr(0, eq));
  value = trim(line.substr(eq + 1));
  return true;
}

/// "x,y,z" or "(x,y,z)".
bool parse_dim3(std::string_view text, Dim3& out) {
  if (text.starts_with('(') && text.ends_with(')')) text = text.substr(1, text.size() - 2);
  uint32_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const size_t comma = i < 2 ? text.find(',') : text.size();
    if (comma == std::string_view::npos) return false;
    uint64_t v = 0;
    if (!parse_unsigned(trim(text.substr(0, comma)), 10, v) || v > 0xFFFFFFFFu) return false;
    parts[i] = static_cast<uint32_t>(v);
    text = i < 2 ? text.substr(comma + 1) : std::string_view{};
  }
  out = Dim3{parts[0], parts[1], parts[2]};
  return true;
}

}  // namespace

TracegReader::TracegReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

void TracegReader::fail(const std::string& expected) const {
  throw InputError(name_ + ":" + std::to_string(line_number_) + ": expected " + expected +
                   ", got '" + line_.substr(0, 80) + "'");
}

bool TracegReader::next_line() {
  try {
    if (!std::getline(in_, line_)) {
      if (in_.bad()) throw std::ios_base::failure("stream error");
      line_.clear();
      return false;
    }
  } catch (const std::exception& e) {
    throw InputError(name_ + ":" + std::to_string(line_number_ + 1) +
                     ": cannot read (truncated or corrupt compressed data?): " + e.what());
  }
  ++line_number_;
  return true;
}

bool TracegReader::next_content_line() {
  while (next_line()) {
    if (!trim(line_).empty()) return true;
  }
  return false;
}

KernelInfo TracegReader::read_header(
    const std::function<std::shared_ptr<OpcodeTable>(Isa)>& table_for) {
  info_ = KernelInfo{};
  info_.trace_version = 3;
  bool have_binary_version = false;
  while (true) {
    if (!next_line()) {
      throw InputError(name_ + ":" + std::to_string(line_number_) +
                       ": expected the '#traces format' line that ends the header, got the end "
                       "of the file");
    }
    const std::string_view line = trim(line_);
    if (line.empty()) continue;
    if (line.front() == '#') break;
    if (line.front() != '-') fail("a header line '-key = value' or '#'");
    std::string_view key, value;
    if (!split_key(line.substr(1), key, value)) fail("a header line '-key = value'");
    const auto number = [&](uint64_t max) {
      uint64_t v = 0;
      if (!parse_unsigned(value, 10, v) || v > max) fail("a decimal value for '" + std::string(key) + "'");
      return v;
    };
    const auto hex = [&] {
      uint64_t v = 0;
      std::string_view digits = value;
      if (digits.starts_with("0x")) digits.remove_prefix(2);
      if (!parse_unsigned(digits, 16, v)) fail("a hex value for '" + std::string(key) + "'");
      return v;
    };
    const auto dim = [&](Dim3& out) {
      if (!parse_dim3(value, out)) fail("(x,y,z) for '" + std::string(key) + "'");
    };
    if (key == "kernel name") {
      info_.name = std::string(value);
    } else if (key == "kernel id") {
      info_.id = number(UINT64_MAX);
    } else if (key == "grid dim") {
      dim(info_.grid);
    } else if (key == "block dim") {
      dim(info_.block);
    } else if (key == "cluster dim") {
      dim(info_.cluster);
    } else if (key == "shmem") {
      info_.static_shared_bytes = static_cast<uint32_t>(number(UINT32_MAX));
    } else if (key == "nregs") {
      info_.registers_per_thread = static_cast<uint32_t>(number(UINT32_MAX));
    } else if (key == "binary version") {
      info_.binary_version = static_cast<uint32_t>(number(UINT32_MAX));
      have_binary_version = true;
    } else if (key == "cuda stream id") {
      info_.cuda_stream_id = number(UINT64_MAX);
    } else if (key == "shmem base_addr") {
      info_.shared_base_address = hex();
    } else if (key == "local mem base_addr") {
      info_.local_base_address = hex();
    } else if (key == "nvbit version") {
      info_.nvbit_version = std::string(value);
    } else if (key == "accelsim tracer version") {
      info_.trace_version = static_cast<uint32_t>(number(UINT32_MAX));
      if (info_.trace_version < 3 || info_.trace_version > 6) fail("a tracer version 3 to 6");
    } else if (key == "enable lineinfo") {
      info_.line_info = number(1) == 1;
    }
  }
  const std::optional<Isa> isa = isa_from_binary_version(info_.binary_version);
  if (!have_binary_version || !isa || !is_nvidia(*isa)) {
    throw InputError(name_ + ": header: expected '-binary version = <compute capability x 10>' "
                     "(e.g. 90), got " +
                     (have_binary_version ? std::to_string(info_.binary_version) : "none"));
  }
  info_.isa = *isa;
  std::shared_ptr<OpcodeTable> table = table_for ? table_for(*isa) : nullptr;
  if (!table) table = std::make_shared<OpcodeTable>(*isa);
  opcodes_ = table.get();
  info_.opcodes = std::move(table);
  info_.validate(name_ + " header");
  format_ = LineFormat{info_.trace_version, info_.line_info, info_.warp_size()};
  return info_;
}

bool TracegReader::next_cta(CtaTrace& cta) {
  if (opcodes_ == nullptr) return false;
  while (true) {
    if (!next_content_line()) return false;
    const std::string_view line = trim(line_);
    if (line == "#BEGIN_TB") break;
    if (line.front() != '#') fail("#BEGIN_TB");
  }
  cta.reset(info_.warps_per_cta());
  std::string_view key, value;
  if (!next_content_line() || !split_key(line_, key, value) || key != "thread block" ||
      !parse_dim3(value, cta.index)) {
    fail("'thread block = x,y,z'");
  }
  if (!contains(info_.grid, cta.index)) fail("a thread block inside the grid " + to_string(info_.grid));
  uint64_t seen = 0;
  while (true) {
    if (!next_content_line()) fail("#END_TB before the end of the file");
    const std::string_view line = trim(line_);
    if (line == "#END_TB") return true;
    if (!split_key(line, key, value)) fail("'warp = <n>', a cluster line or #END_TB");
    if (key == "warp") {
      parse_warp(value, cta, seen);
      continue;
    }
    if (key != "cluster id" && key != "cluster cta" && key != "cluster rank") {
      fail("'warp = <n>', a cluster line or #END_TB");
    }
    if (!cta.cluster) cta.cluster = ClusterPosition{};
    if (key == "cluster rank") {
      uint64_t rank = 0;
      if (!parse_unsigned(value, 10, rank) || rank > UINT32_MAX) fail("'cluster rank = <r>'");
      cta.cluster->rank = static_cast<uint32_t>(rank);
    } else if (!parse_dim3(value, key == "cluster id" ? cta.cluster->cluster_id
                                                      : cta.cluster->cta_in_cluster)) {
      fail("'" + std::string(key) + " = x,y,z'");
    }
  }
}

void TracegReader::parse_warp(std::string_view value, CtaTrace& cta, uint64_t& seen) {
  uint64_t w = 0;
  if (!parse_unsigned(value, 10, w) || w >= cta.warps.size()) {
    fail("'warp = <n>' with n below the " + std::to_string(cta.warps.size()) + " warps of a CTA");
  }
  if ((seen >> w) & 1u) fail("each warp once per thread block (warp " + std::to_string(w) + " again)");
  seen |= uint64_t{1} << w;
  std::string_view key, count_text;
  uint64_t count = 0;
  if (!next_content_line() || !split_key(line_, key, count_text) || key != "insts" ||
      !parse_unsigned(count_text, 10, count)) {
    fail("'insts = <count>'");
  }
  WarpTrace& warp = cta.warps[w];
  for (uint64_t i = 0; i < count; ++i) {
    if (!next_content_line()) fail(std::to_string(count) + " instruction lines (got " + std::to_string(i) + ")");
    Tokens tokens(line_, name_, line_number_);
    parse_instruction(tokens, format_, *opcodes_, warp);
  }
}

}  // namespace warpsim::traces::accelsim
