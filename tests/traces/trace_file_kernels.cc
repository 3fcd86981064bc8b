#include "tests/traces/trace_file_kernels.h"

#include <array>
#include <filesystem>
#include <vector>

#include "traces/accelsim/accelsim_writer.h"
#include "traces/accelsim/instruction_line.h"
#include "traces/builder.h"

namespace warpsim::traces::testing {

KernelTrace edge_case_kernel() {
  KernelBuilder k("_Z4edgePfS_i", {2, 1, 1}, {128, 1, 1}, Isa::kSm90);
  k.info().cluster = {2, 1, 1};
  k.info().binary_version = 90;
  k.info().trace_version = 6;
  k.info().registers_per_thread = 168;
  k.info().static_shared_bytes = 49152;
  k.info().cuda_stream_id = 7;
  k.info().shared_base_address = 0x00007f0000000000;
  k.info().local_base_address = 0x00007f1000000000;
  k.info().nvbit_version = "1.7.1";
  k.info().id = 3;
  k.info().memcpys_before = {{0x00007efe7b500000, 2052}, {0x00007efe7b500a00, 262144}};
  for (uint32_t c = 0; c < 2; ++c) {
    const size_t position = k.add_cta({c, 0, 0});
    k.cta(position).cluster = ClusterPosition{{0, 0, 0}, {c, 0, 0}, c};
    WarpBuilder w0 = k.warp(position, 0);
    w0.add("IMAD.MOV.U32", {gpr(1)}, {kRZ, kRZ});
    w0.mem("LDG.E.128.CONSTANT.SYS", {gpr(24)}, {gpr(44)},
           strided_addresses(0xFFFFFFFF, 0x7efe7b60c300 + c * 512, 16));
    w0.mask(0x0000FFF0)
        .mem("STG.E", {}, {gpr(2), gpr(3)},
             std::vector<uint64_t>{0x9000, 0x8000, 0x8004, 0x7000, 0x7010, 0x7014, 0x100,
                                   0xFFFFFFFFFFFFFF00, 0x0, 0x40, 0x44, 0x48});
    w0.mask(1u << 5).mem("LDS.U.128", {gpr(8)}, {gpr(9)}, std::vector<uint64_t>{0x40});
    w0.mask(0).mem("LDG.E", {gpr(10)}, {gpr(12)}, std::vector<uint64_t>{}, 4);
    w0.mask(0xFFFFFFFF).add("IADD3.X", {gpr(5)}, {gpr(1), gpr(2), gpr(3), gpr(4), gpr(6)});
    w0.add("ISETP.GE.AND", {pred(0)}, {gpr(5), ureg(4), kPT}).guard(pred(1), true);
    w0.add("UIADD3", {ureg(5)}, {ureg(4), kURZ, upred(0)});
    w0.add("DEPBAR.LE", {}, {}).imm(2);
    w0.add("BRA", {}, {}).imm(-48);
    // Warp 1 stays empty.
    WarpBuilder w2 = k.warp(position, 2);
    w2.add("HGMMA.64x128x16.F32.BF16", {gpr(24)}, {ureg(8), ureg(12)});
    w2.last().flags |= kInstGmmaCommit;
    w2.add("HGMMA.64x128x16.F32.BF16", {gpr(24)}, {ureg(8), ureg(12)});
    w2.add("UTMALDG.2D", {}, {ureg(4), ureg(8)});
    TmaInfo tma{0x7f0000000400, 0, 16384, 128, 0, 0, 0, false};
    tma.address_offset = static_cast<uint32_t>(w2.warp().addresses.size());
    w2.warp().addresses.insert(w2.warp().addresses.end(), {0x10000, 0x10040, 0x10080});
    tma.address_count = 3;
    w2.warp().mutable_extras(w2.last()).tma = tma;
    w2.add("UTMASTG.3D", {}, {ureg(6)});
    TmaInfo store{0x7f0000000800, 0xF, 4096, 0, 0, 0, 2, true};
    store.address_offset = static_cast<uint32_t>(w2.warp().addresses.size());
    w2.warp().addresses.insert(w2.warp().addresses.end(), {0x20000, 0x1FF00});
    store.address_count = 2;
    w2.warp().mutable_extras(w2.last()).tma = store;
    w2.add("IMAD", {gpr(3)}, {gpr(1), gpr(2)}).imm(5);
    {
      InstructionExtras& ex = w2.warp().mutable_extras(w2.last());
      ex.imm2 = -7;
      ex.has_values = true;
      ex.wide_values = 0b001;  // R3 per lane, R1 and R2 one value each
      ex.values_offset = static_cast<uint32_t>(w2.warp().values.size());
      for (uint32_t lane = 0; lane < 32; ++lane) w2.warp().values.push_back(lane * 3 + c);
      w2.warp().values.push_back(0xDEADBEEF);
      w2.warp().values.push_back(0);
    }
    w2.add("EXIT");
    WarpBuilder w3 = k.warp(position, 3);
    w3.mask(0x80000001)
        .mem("ATOMG.E.ADD.STRONG.GPU", {gpr(0)}, {gpr(2), gpr(4)},
             std::vector<uint64_t>{0x5000, 0x4000});
    w3.mask(0x00F0).mem("LDG.E.64", {gpr(6)}, {gpr(8)}, strided_addresses(0x00F0, 0x1000, -8));
    w3.mask(0xFFFFFFFF).add("EXIT");
  }
  return std::move(k).build();
}

KernelTrace line_info_kernel() {
  KernelBuilder k("_Z5linesv", {1, 2, 1}, {64, 1, 1}, Isa::kSm80);
  k.info().binary_version = 86;
  k.info().trace_version = 4;
  k.info().line_info = true;
  k.info().static_shared_bytes = 1024;
  k.fill_grid([](WarpBuilder& w, const CtaTrace& cta, uint32_t warp) {
    w.add("S2R", {gpr(0)}).line(10);
    w.mem("LDG.E", {gpr(2)}, {gpr(4)}, strided_addresses(~0u, 0x1000 * (cta.index.y + 1), 4))
        .line(11);
    w.add("FFMA", {gpr(3)}, {gpr(2), gpr(5), gpr(3)}).line(12);
    if (warp == 1)
      w.mask(0xFFFF).mem("STS", {}, {gpr(8), gpr(3)}, strided_addresses(0xFFFF, 0, 4)).line(13);
    w.mask(~0u).add("EXIT").line(14);
  });
  return std::move(k).build();
}

std::vector<KernelTrace> read_all(KernelSource& source) {
  std::vector<KernelTrace> kernels;
  KernelInfo info;
  while (source.next_kernel(info)) {
    KernelTrace kernel{info, {}};
    CtaTrace cta;
    while (source.next_cta(cta)) kernel.ctas.push_back(cta);
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

void remap_opcodes(CtaTrace& cta, const OpcodeTable& from, const OpcodeTable& to) {
  for (WarpTrace& warp : cta.warps) {
    for (WarpInstruction& inst : warp.instructions) {
      const auto id = to.find(from.info(inst.opcode).mnemonic);
      ASSERT_TRUE(id.has_value()) << from.info(inst.opcode).mnemonic;
      inst.opcode = *id;
    }
  }
}

namespace {

WarpTrace project_warp(const WarpTrace& in, const KernelInfo& kernel, uint32_t version) {
  const OpcodeTable& opcodes = *kernel.opcodes;
  const bool v6 = version >= 6;
  WarpTrace out;
  out.warp_id = in.warp_id;
  for (size_t i = 0; i < in.instructions.size(); ++i) {
    const WarpInstruction& o = in.instructions[i];
    const std::string& mnemonic = opcodes.info(o.opcode).mnemonic;
    const InstructionExtras* ox = in.extras_of(o);
    WarpInstruction n;
    n.active_mask = o.active_mask;
    n.pc = o.pc;
    n.opcode = o.opcode;
    n.num_dst = o.num_dst;
    n.num_src = o.num_src;
    n.dst = o.dst;
    n.src = o.src;
    for (int k = o.num_dst; k < kMaxDsts; ++k) n.dst[k] = Reg{};
    for (int k = o.num_src; k < kMaxSrcs; ++k) n.src[k] = Reg{};
    if (v6 && accelsim::has_gmma_flag(mnemonic) && o.has(kInstGmmaCommit))
      n.flags |= kInstGmmaCommit;
    const bool imm2 = v6 && ox != nullptr && ox->imm2;
    if (o.has(kInstHasImm) || o.imm != 0 || imm2) {
      n.flags |= kInstHasImm;
      n.imm = o.imm;
    }
    InstructionExtras ex;
    bool need = false;
    if (v6 && accelsim::is_tma_opcode(mnemonic)) {
      n.mem_width = o.mem_width;
      TmaInfo tma = ox != nullptr && ox->tma ? *ox->tma : TmaInfo{};
      const auto addresses = in.tma_addresses(o);
      tma.address_mode = tma.address_mode == 2 ? 2 : 0;
      tma.address_offset = static_cast<uint32_t>(out.addresses.size());
      out.addresses.insert(out.addresses.end(), addresses.begin(), addresses.end());
      ex.tma = tma;
      need = true;
    } else if (o.mem_width > 0 && o.has_lane_addresses()) {
      n.mem_width = o.mem_width;
      std::array<uint64_t, kMaxLanes> lanes{};
      in.expand_lane_addresses(o, lanes);
      std::vector<uint64_t> packed;
      for_each_lane(o.active_mask, [&](uint32_t lane) { packed.push_back(lanes[lane]); });
      out.set_lane_addresses(n, packed);
    }
    if (imm2) {
      ex.imm2 = ox->imm2;
      need = true;
    }
    if (v6 && ox != nullptr && ox->has_values) {
      ex.has_values = true;
      ex.wide_values = ox->wide_values;
      ex.values_offset = static_cast<uint32_t>(out.values.size());
      for (uint32_t op = 0; op < uint32_t{o.num_dst} + o.num_src; ++op) {
        const auto v = in.operand_values(o, op, kernel.warp_size());
        out.values.insert(out.values.end(), v.begin(), v.end());
      }
      need = true;
    }
    if (need) {
      n.extras = static_cast<uint32_t>(out.extras.size());
      out.extras.push_back(ex);
    }
    out.instructions.push_back(n);
    if (kernel.line_info)
      out.line_numbers.push_back(i < in.line_numbers.size() ? in.line_numbers[i] : 0);
  }
  return out;
}

}  // namespace

KernelTrace accelsim_projection(const KernelTrace& kernel) {
  KernelTrace out{kernel.info, {}};
  const uint32_t version = accelsim::writer_version(kernel.info);
  KernelInfo& info = out.info;
  info.static_shared_bytes = static_cast<uint32_t>(kernel.info.shared_bytes());
  info.dynamic_shared_bytes = 0;
  info.source_gpu.clear();
  info.trace_version = version;
  if (info.binary_version == 0)
    info.binary_version = info.isa == Isa::kSm80 ? 80 : info.isa == Isa::kSm90 ? 90 : 100;
  for (const CtaTrace& cta : kernel.ctas) {
    CtaTrace p;
    p.index = cta.index;
    if (version >= 6) p.cluster = cta.cluster;
    for (const WarpTrace& warp : cta.warps)
      p.warps.push_back(project_warp(warp, kernel.info, version));
    out.ctas.push_back(std::move(p));
  }
  return out;
}

void expect_same_info(const KernelInfo& e, const KernelInfo& a) {
  EXPECT_EQ(e.name, a.name);
  EXPECT_EQ(e.id, a.id);
  EXPECT_EQ(e.grid, a.grid);
  EXPECT_EQ(e.block, a.block);
  EXPECT_EQ(e.cluster, a.cluster);
  EXPECT_EQ(e.registers_per_thread, a.registers_per_thread);
  EXPECT_EQ(e.static_shared_bytes, a.static_shared_bytes);
  EXPECT_EQ(e.dynamic_shared_bytes, a.dynamic_shared_bytes);
  EXPECT_EQ(e.isa, a.isa);
  EXPECT_EQ(e.binary_version, a.binary_version);
  EXPECT_EQ(e.source_gpu, a.source_gpu);
  EXPECT_EQ(e.cuda_stream_id, a.cuda_stream_id);
  EXPECT_EQ(e.shared_base_address, a.shared_base_address);
  EXPECT_EQ(e.local_base_address, a.local_base_address);
  EXPECT_EQ(e.trace_version, a.trace_version);
  EXPECT_EQ(e.nvbit_version, a.nvbit_version);
  EXPECT_EQ(e.line_info, a.line_info);
  EXPECT_EQ(e.memcpys_before, a.memcpys_before);
}

void expect_same_kernel(const KernelTrace& expected, const KernelTrace& actual) {
  expect_same_info(expected.info, actual.info);
  ASSERT_EQ(expected.ctas.size(), actual.ctas.size());
  for (size_t c = 0; c < expected.ctas.size(); ++c) {
    CtaTrace remapped = actual.ctas[c];
    remap_opcodes(remapped, *actual.info.opcodes, *expected.info.opcodes);
    ASSERT_EQ(expected.ctas[c].warps.size(), remapped.warps.size()) << "CTA " << c;
    for (size_t w = 0; w < remapped.warps.size(); ++w) {
      const WarpTrace& ew = expected.ctas[c].warps[w];
      const WarpTrace& aw = remapped.warps[w];
      ASSERT_EQ(ew.instructions.size(), aw.instructions.size()) << "CTA " << c << " warp " << w;
      for (size_t i = 0; i < ew.instructions.size(); ++i) {
        ASSERT_EQ(ew.instructions[i], aw.instructions[i])
            << "CTA " << c << " warp " << w << " instruction " << i << " "
            << expected.info.opcodes->info(ew.instructions[i].opcode).mnemonic;
      }
      EXPECT_EQ(ew, aw) << "CTA " << c << " warp " << w << " pools";
    }
    EXPECT_EQ(expected.ctas[c].index, remapped.index);
    EXPECT_EQ(expected.ctas[c].cluster, remapped.cluster);
  }
}

std::string temp_dir(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "warpsim_trace_tests" /
      (std::string(info->test_suite_name()) + "." + info->name() + "." + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace warpsim::traces::testing
