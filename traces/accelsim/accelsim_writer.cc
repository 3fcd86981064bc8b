#include "traces/accelsim/accelsim_writer.h"

#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "arch/error.h"
#include "traces/accelsim/instruction_line.h"

namespace warpsim::traces::accelsim {
namespace {

std::string hex16(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%016" PRIx64, value);
  return buffer;
}

std::string dim(Dim3 d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

uint32_t default_binary_version(Isa isa) {
  switch (isa) {
    case Isa::kSm80:
      return 80;
    case Isa::kSm90:
      return 90;
    default:
      return 100;
  }
}

/// Counts bytes written through it.
class CountingFile {
 public:
  CountingFile(const std::string& path, bool xz) : path_(path) {
    if (xz) {
      stream_.push(boost::iostreams::lzma_compressor());
    }
    stream_.push(boost::iostreams::file_sink(path, std::ios::binary | std::ios::trunc));
    if (!stream_.component<boost::iostreams::file_sink>(xz ? 1 : 0)->is_open()) {
      throw InputError(path + ": cannot open for writing");
    }
  }
  void write(const std::string& text) {
    stream_.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!stream_) throw InputError(path_ + ": write failed (disk full?)");
  }
  uint64_t close() {
    stream_.reset();
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    return ec ? 0 : size;
  }

 private:
  std::string path_;
  boost::iostreams::filtering_ostream stream_;
};

}  // namespace

uint32_t writer_version(const KernelInfo& kernel) {
  return kernel.trace_version >= 3 && kernel.trace_version <= 6 ? kernel.trace_version : 6;
}

void format_traceg_header(const KernelInfo& kernel, uint32_t version, std::string& out) {
  const uint32_t binary =
      kernel.binary_version != 0 ? kernel.binary_version : default_binary_version(kernel.isa);
  out += "-kernel name = " + kernel.name + "\n";
  out += "-kernel id = " + std::to_string(kernel.id) + "\n";
  out += "-grid dim = (" + dim(kernel.grid) + ")\n";
  out += "-block dim = (" + dim(kernel.block) + ")\n";
  if (kernel.cluster != Dim3{1, 1, 1}) out += "-cluster dim = (" + dim(kernel.cluster) + ")\n";
  out += "-shmem = " + std::to_string(kernel.shared_bytes()) + "\n";
  out += "-nregs = " + std::to_string(kernel.registers_per_thread) + "\n";
  out += "-binary version = " + std::to_string(binary) + "\n";
  out += "-cuda stream id = " + std::to_string(kernel.cuda_stream_id) + "\n";
  out += "-shmem base_addr = " + hex16(kernel.shared_base_address) + "\n";
  out += "-local mem base_addr = " + hex16(kernel.local_base_address) + "\n";
  out += "-nvbit version = " + kernel.nvbit_version + "\n";
  out += "-accelsim tracer version = " + std::to_string(version) + "\n";
  out += std::string("-enable lineinfo = ") + (kernel.line_info ? "1" : "0") + "\n\n";
  out += "#traces format = ";
  if (kernel.line_info) out += "[line_num] ";
  out += "PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
         "[adrrescompress?] [mem_addresses] immediate\n\n";
}

void format_traceg_cta(const KernelInfo& kernel, uint32_t version, const CtaTrace& cta,
                       std::string& out) {
  const LineFormat format{version, kernel.line_info, kernel.warp_size()};
  out += "#BEGIN_TB\n\nthread block = " + dim(cta.index) + "\n";
  if (cta.cluster && version >= 6) {
    out += "cluster id = " + dim(cta.cluster->cluster_id) + "\n";
    out += "cluster cta = " + dim(cta.cluster->cta_in_cluster) + "\n";
    out += "cluster rank = " + std::to_string(cta.cluster->rank) + "\n";
  }
  out += '\n';
  for (const WarpTrace& warp : cta.warps) {
    out += "warp = " + std::to_string(warp.warp_id) + "\n";
    out += "insts = " + std::to_string(warp.instructions.size()) + "\n";
    for (size_t i = 0; i < warp.instructions.size(); ++i) {
      format_instruction(warp, i, *kernel.opcodes, format, out);
    }
    out += '\n';
  }
  out += "#END_TB\n\n";
}

AccelSimWriteStats write_accelsim(KernelSource& source, const std::string& kernelslist,
                                  const AccelSimWriteOptions& options) {
  std::filesystem::path list_path(kernelslist);
  if (std::filesystem::is_directory(list_path) || !kernelslist.ends_with(".g")) {
    std::filesystem::create_directories(list_path);
    list_path /= "kernelslist.g";
  }
  const std::filesystem::path folder = list_path.parent_path();
  std::error_code ec;
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);
  std::ofstream list(list_path, std::ios::trunc);
  if (!list) throw InputError(list_path.string() + ": cannot open for writing");
  AccelSimWriteStats stats;
  KernelInfo kernel;
  CtaTrace cta;
  std::string text;
  while (source.next_kernel(kernel)) {
    if (!is_nvidia(kernel.isa)) {
      throw InputError(source.describe() + ": kernel '" + kernel.name + "' is " +
                       std::string(isa_name(kernel.isa)) +
                       "; Accel-Sim traces hold NVIDIA SASS only");
    }
    ++stats.kernels;
    for (const MemcpyEvent& m : kernel.memcpys_before) {
      list << "MemcpyHtoD," << hex16(m.device_address) << "," << m.bytes << "\n";
    }
    const std::string file_name =
        "kernel-" + std::to_string(stats.kernels) + (options.xz ? ".traceg.xz" : ".traceg");
    list << file_name << "\n";
    CountingFile file((folder / file_name).string(), options.xz);
    const uint32_t version = writer_version(kernel);
    text.clear();
    format_traceg_header(kernel, version, text);
    file.write(text);
    while (source.next_cta(cta)) {
      text.clear();
      format_traceg_cta(kernel, version, cta, text);
      file.write(text);
      ++stats.ctas;
      stats.instructions += cta.instruction_count();
    }
    stats.bytes += file.close();
  }
  list.close();
  if (!list) throw InputError(list_path.string() + ": write failed");
  stats.bytes += std::filesystem::file_size(list_path, ec);
  return stats;
}

}  // namespace warpsim::traces::accelsim
