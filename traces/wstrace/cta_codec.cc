#include "traces/wstrace/cta_codec.h"

#include <bit>
#include <cstring>
#include <limits>

#include "arch/error.h"

namespace warpsim::traces::wstrace {
namespace {

constexpr uint32_t kShapeHasExtras = 1u << 16;

uint64_t load_le64(const unsigned char* in) {
  uint64_t value = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&value, in, 8);
  } else {
    for (int b = 0; b < 8; ++b) value |= uint64_t{in[b]} << (8 * b);
  }
  return value;
}

void store_le64(uint64_t value, char* out) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, &value, 8);
  } else {
    for (int b = 0; b < 8; ++b) out[b] = static_cast<char>((value >> (8 * b)) & 0xFF);
  }
}

void put_dim3(Dim3 d, Dim3Proto& out) {
  out.set_x(d.x);
  out.set_y(d.y);
  out.set_z(d.z);
}

Dim3 get_dim3(const Dim3Proto& in) { return Dim3{in.x(), in.y(), in.z()}; }

void encode_warp(const WarpTrace& warp, WarpProto& out) {
  out.set_warp_id(warp.warp_id);
  const int n = static_cast<int>(warp.instructions.size());
  out.mutable_pc_delta()->Reserve(n);
  out.mutable_active_mask()->Reserve(n);
  out.mutable_opcode()->Reserve(n);
  out.mutable_shape()->Reserve(n);
  out.mutable_imm()->Reserve(n);
  out.mutable_mem_width()->Reserve(n);
  int64_t previous_pc = 0;
  for (const WarpInstruction& inst : warp.instructions) {
    out.add_pc_delta(int64_t{inst.pc} - previous_pc);
    previous_pc = inst.pc;
    out.add_active_mask(inst.active_mask);
    out.add_opcode(inst.opcode);
    const bool has_extras = inst.extras != kNoExtras;
    out.add_shape(uint32_t{inst.num_dst} | uint32_t{inst.num_src} << 4 |
                  uint32_t{inst.flags} << 8 | (has_extras ? kShapeHasExtras : 0) |
                  uint32_t{inst.issue_stall & 0xFu} << 17 | uint32_t{inst.reuse & 0xFu} << 21);
    for (int i = 0; i < inst.num_dst && i < kMaxDsts; ++i) out.add_regs(inst.dst[i].bits);
    for (int i = 0; i < inst.num_src && i < kMaxSrcs; ++i) out.add_regs(inst.src[i].bits);
    out.add_regs(inst.guard.bits);
    out.add_imm(inst.imm);
    out.add_mem_width(inst.mem_width);
    if (inst.has_lane_addresses()) out.add_mem_offset(inst.mem_offset);
    if (has_extras) out.add_extras_index(inst.extras);
  }
  std::string& deltas = *out.mutable_address_deltas();
  deltas.resize(warp.addresses.size() * 8);
  uint64_t previous_address = 0;
  for (size_t i = 0; i < warp.addresses.size(); ++i) {
    const uint64_t delta = warp.addresses[i] - previous_address;
    previous_address = warp.addresses[i];
    store_le64(delta, deltas.data() + i * 8);
  }
  for (const InstructionExtras& ex : warp.extras) {
    ExtrasProto& e = *out.add_extras();
    if (ex.imm2) {
      e.set_has_imm2(true);
      e.set_imm2(*ex.imm2);
    }
    if (ex.tma) {
      TmaProto& t = *e.mutable_tma();
      t.set_mbarrier_address(ex.tma->mbarrier_address);
      t.set_multicast_cta_mask(ex.tma->multicast_cta_mask);
      t.set_bytes(ex.tma->bytes);
      t.set_oob_bytes(ex.tma->oob_bytes);
      t.set_address_offset(ex.tma->address_offset);
      t.set_address_count(ex.tma->address_count);
      t.set_address_mode(ex.tma->address_mode);
      t.set_multicast(ex.tma->multicast);
    }
    e.set_has_values(ex.has_values);
    e.set_wide_values(ex.wide_values);
    e.set_values_offset(ex.values_offset);
    e.set_predicated_off(ex.predicated_off);
  }
  out.mutable_values()->Add(warp.values.begin(), warp.values.end());
  out.mutable_line_numbers()->Add(warp.line_numbers.begin(), warp.line_numbers.end());
}

/// Reads sequentially from a packed column, failing instead of running past its end.
template <typename Column>
class ColumnReader {
 public:
  ColumnReader(const Column& column, const char* name, const std::string& where)
      : column_(column), name_(name), where_(where) {}
  auto next() {
    if (next_ >= column_.size()) {
      throw InputError(where_ + ": column '" + name_ + "' ends early (corrupt CTA record)");
    }
    return column_.Get(next_++);
  }
  bool finished() const { return next_ == column_.size(); }

 private:
  const Column& column_;
  const char* name_;
  const std::string& where_;
  int next_ = 0;
};

void decode_warp(const WarpProto& in, uint32_t warp_size, size_t opcode_count,
                 const std::string& where, WarpTrace& warp) {
  warp.clear();
  warp.warp_id = in.warp_id();
  const std::string at = where + ", warp " + std::to_string(in.warp_id());
  const auto fail = [&](const std::string& what) { throw InputError(at + ": " + what); };
  const int n = in.opcode_size();
  if (in.pc_delta_size() != n || in.active_mask_size() != n || in.shape_size() != n ||
      in.imm_size() != n || in.mem_width_size() != n) {
    fail("instruction columns differ in length (corrupt CTA record)");
  }
  ColumnReader regs(in.regs(), "regs", at);
  ColumnReader mem_offsets(in.mem_offset(), "mem_offset", at);
  ColumnReader extras_indices(in.extras_index(), "extras_index", at);
  warp.instructions.resize(static_cast<size_t>(n));
  int64_t pc = 0;
  for (int i = 0; i < n; ++i) {
    WarpInstruction& inst = warp.instructions[static_cast<size_t>(i)];
    inst = WarpInstruction{};
    const int64_t delta = in.pc_delta(i);
    if (delta > int64_t{std::numeric_limits<uint32_t>::max()} ||
        delta < -int64_t{std::numeric_limits<uint32_t>::max()}) {
      fail("pc out of range");
    }
    pc += delta;
    if (pc < 0 || pc > int64_t{std::numeric_limits<uint32_t>::max()}) fail("pc out of range");
    inst.pc = static_cast<uint32_t>(pc);
    inst.active_mask = in.active_mask(i);
    if (in.opcode(i) >= opcode_count) fail("opcode id beyond the kernel's opcode table");
    inst.opcode = static_cast<OpcodeId>(in.opcode(i));
    const uint32_t shape = in.shape(i);
    inst.num_dst = static_cast<uint8_t>(shape & 0xF);
    inst.num_src = static_cast<uint8_t>((shape >> 4) & 0xF);
    inst.flags = static_cast<uint8_t>((shape >> 8) & 0xFF);
    inst.issue_stall = static_cast<uint8_t>((shape >> 17) & 0xF);
    inst.reuse = static_cast<uint8_t>((shape >> 21) & 0xF);
    if (inst.num_dst > kMaxDsts || inst.num_src > kMaxSrcs || (shape >> 25) != 0) {
      fail("bad operand counts or flags");
    }
    const auto reg = [&]() {
      const uint32_t bits = regs.next();
      if (bits > 0xFFFF) fail("register out of range");
      return Reg{static_cast<uint16_t>(bits)};
    };
    for (int k = 0; k < inst.num_dst; ++k) inst.dst[k] = reg();
    for (int k = 0; k < inst.num_src; ++k) inst.src[k] = reg();
    inst.guard = reg();
    inst.imm = in.imm(i);
    if (in.mem_width(i) > 0xFFFF) fail("memory width out of range");
    inst.mem_width = static_cast<uint16_t>(in.mem_width(i));
    if (inst.has_lane_addresses()) inst.mem_offset = mem_offsets.next();
    if ((shape & kShapeHasExtras) != 0) inst.extras = extras_indices.next();
  }
  if (!regs.finished() || !mem_offsets.finished() || !extras_indices.finished()) {
    fail("operand columns longer than the instructions need (corrupt CTA record)");
  }
  const std::string& deltas = in.address_deltas();
  if (deltas.size() % 8 != 0) fail("address deltas are not a whole number of 8-byte values");
  warp.addresses.resize(deltas.size() / 8);
  uint64_t address = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(deltas.data());
  for (size_t i = 0; i < warp.addresses.size(); ++i) {
    address += load_le64(bytes + i * 8);
    warp.addresses[i] = address;
  }
  for (const ExtrasProto& e : in.extras()) {
    InstructionExtras ex;
    if (e.has_imm2()) ex.imm2 = e.imm2();
    if (e.has_tma()) {
      const TmaProto& t = e.tma();
      if (t.address_mode() > 0xFF) fail("TMA address mode out of range");
      ex.tma = TmaInfo{t.mbarrier_address(), t.multicast_cta_mask(), t.bytes(),
                       t.oob_bytes(),        t.address_offset(),     t.address_count(),
                       static_cast<uint8_t>(t.address_mode()),       t.multicast()};
    }
    ex.has_values = e.has_values();
    if (e.wide_values() > 0xFFFF) fail("value widths out of range");
    ex.wide_values = static_cast<uint16_t>(e.wide_values());
    ex.values_offset = e.values_offset();
    ex.predicated_off = e.predicated_off();
    warp.extras.push_back(ex);
  }
  warp.values.assign(in.values().begin(), in.values().end());
  warp.line_numbers.assign(in.line_numbers().begin(), in.line_numbers().end());
  warp.validate(where, warp_size);
}

}  // namespace

void encode_cta(const CtaTrace& cta, CtaProto& out) {
  out.Clear();
  put_dim3(cta.index, *out.mutable_index());
  if (cta.cluster) {
    ClusterProto& c = *out.mutable_cluster();
    put_dim3(cta.cluster->cluster_id, *c.mutable_cluster_id());
    put_dim3(cta.cluster->cta_in_cluster, *c.mutable_cta_in_cluster());
    c.set_rank(cta.cluster->rank);
  }
  for (const WarpTrace& warp : cta.warps) encode_warp(warp, *out.add_warps());
}

void decode_cta(const CtaProto& in, uint32_t warp_size, size_t opcode_count,
                const std::string& where, CtaTrace& cta) {
  cta.index = get_dim3(in.index());
  cta.cluster.reset();
  if (in.has_cluster()) {
    cta.cluster = ClusterPosition{get_dim3(in.cluster().cluster_id()),
                                  get_dim3(in.cluster().cta_in_cluster()), in.cluster().rank()};
  }
  cta.warps.resize(static_cast<size_t>(in.warps_size()));
  for (int i = 0; i < in.warps_size(); ++i) {
    decode_warp(in.warps(i), warp_size, opcode_count, where, cta.warps[static_cast<size_t>(i)]);
  }
}

void encode_kernel(const KernelInfo& kernel, KernelProto& out) {
  out.set_name(kernel.name);
  out.set_id(kernel.id);
  put_dim3(kernel.grid, *out.mutable_grid());
  put_dim3(kernel.block, *out.mutable_block());
  put_dim3(kernel.cluster, *out.mutable_cluster());
  out.set_registers_per_thread(kernel.registers_per_thread);
  out.set_static_shared_bytes(kernel.static_shared_bytes);
  out.set_dynamic_shared_bytes(kernel.dynamic_shared_bytes);
  out.set_isa(static_cast<uint32_t>(kernel.isa));
  out.set_binary_version(kernel.binary_version);
  out.set_source_gpu(kernel.source_gpu);
  out.set_cuda_stream_id(kernel.cuda_stream_id);
  out.set_shared_base_address(kernel.shared_base_address);
  out.set_local_base_address(kernel.local_base_address);
  out.set_trace_version(kernel.trace_version);
  out.set_nvbit_version(kernel.nvbit_version);
  out.set_line_info(kernel.line_info);
  for (const MemcpyEvent& m : kernel.memcpys_before) {
    MemcpyProto& p = *out.add_memcpys_before();
    p.set_device_address(m.device_address);
    p.set_bytes(m.bytes);
  }
}

void decode_kernel(const KernelProto& in, const std::string& where, KernelInfo& kernel) {
  if (in.isa() >= static_cast<uint32_t>(kIsaCount)) {
    throw InputError(where + ": kernel '" + in.name() + "': unknown ISA value " +
                     std::to_string(in.isa()));
  }
  kernel.name = in.name();
  kernel.id = in.id();
  kernel.grid = get_dim3(in.grid());
  kernel.block = get_dim3(in.block());
  kernel.cluster = get_dim3(in.cluster());
  kernel.registers_per_thread = in.registers_per_thread();
  kernel.static_shared_bytes = in.static_shared_bytes();
  kernel.dynamic_shared_bytes = in.dynamic_shared_bytes();
  kernel.isa = static_cast<Isa>(in.isa());
  kernel.binary_version = in.binary_version();
  kernel.source_gpu = in.source_gpu();
  kernel.cuda_stream_id = in.cuda_stream_id();
  kernel.shared_base_address = in.shared_base_address();
  kernel.local_base_address = in.local_base_address();
  kernel.trace_version = in.trace_version();
  kernel.nvbit_version = in.nvbit_version();
  kernel.line_info = in.line_info();
  kernel.memcpys_before.clear();
  for (const MemcpyProto& m : in.memcpys_before()) {
    kernel.memcpys_before.push_back(MemcpyEvent{m.device_address(), m.bytes()});
  }
}

}  // namespace warpsim::traces::wstrace
