// `warpsim trace info <file>` and `warpsim trace convert <in> <out> [--to FORMAT]`: inspect a
// trace file (kernels, launch configs, instruction counts by op class, memory footprint, file
// size and compression ratio against the equivalent uncompressed .traceg), and convert between
// the native .wstrace format and Accel-Sim traces. Both stream: one CTA in memory at a time.
#include <filesystem>
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"
#include "traces/accelsim/accelsim_source.h"
#include "traces/accelsim/accelsim_writer.h"
#include "traces/kernel_summary.h"
#include "traces/trace_files.h"
#include "traces/wstrace/wstrace_reader.h"
#include "workloads/workload.h"

namespace warpsim::cli {
namespace {

const Usage kUsage{
    "warpsim trace info <file> | convert (<in> | --workload <name> [--param k=v ...]) <out>\n"
    "                     [--to wstrace|accelsim|accelsim-xz]",
    "Inspects trace files and converts between the native .wstrace format and Accel-Sim traces\n"
    "(kernelslist.g with .traceg or .traceg.xz files). Formats follow the extensions: .wstrace;\n"
    "kernelslist.g, .traceg, .traceg.xz or a folder holding a kernelslist.g. --to overrides the\n"
    "output format (accelsim-xz writes .traceg.xz files). --workload writes a built-in workload\n"
    "model's kernels instead of reading a trace (e.g. to run it on Accel-Sim as well)."};

uint64_t file_size(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

/// Bytes of every file of the trace at `path`.
uint64_t trace_bytes(const std::string& path, traces::KernelSource& source) {
  if (const auto* accel = dynamic_cast<const traces::accelsim::AccelSimSource*>(&source)) {
    uint64_t bytes = std::filesystem::is_directory(path) ? 0 : file_size(path);
    if (!path.ends_with(".traceg") && !path.ends_with(".traceg.xz")) {
      if (bytes == 0) bytes = file_size((std::filesystem::path(path) / "kernelslist.g").string());
      for (const auto& entry : accel->entries()) bytes += file_size(entry.path);
    }
    return bytes;
  }
  return file_size(path);
}

void print_kernel(std::ostream& out, size_t index, const traces::KernelInfo& k,
                  const traces::KernelSummary& s) {
  out << "kernel " << index << ": " << k.name << " (id " << k.id << ")\n"
      << "  grid " << traces::to_string(k.grid) << ", block " << traces::to_string(k.block);
  if (k.cluster != traces::Dim3{1, 1, 1}) out << ", cluster " << traces::to_string(k.cluster);
  out << ", " << k.registers_per_thread << " registers/thread, shared " << k.static_shared_bytes
      << " B static + " << k.dynamic_shared_bytes << " B dynamic, stream " << k.cuda_stream_id
      << "\n  isa " << traces::isa_name(k.isa);
  if (k.binary_version != 0) out << " (binary version " << k.binary_version << ")";
  if (k.trace_version != 0) out << ", Accel-Sim tracer version " << k.trace_version;
  if (!k.source_gpu.empty()) out << ", recorded on " << k.source_gpu;
  out << "\n";
  if (!k.memcpys_before.empty()) {
    uint64_t bytes = 0;
    for (const auto& m : k.memcpys_before) bytes += m.bytes;
    out << "  " << k.memcpys_before.size() << " host-to-device copies before it (" << bytes
        << " B)\n";
  }
  out << "  " << s.ctas << " CTAs, " << s.warps << " warps, " << s.warp_instructions
      << " warp instructions, " << s.thread_instructions << " thread instructions\n  by class:";
  for (size_t c = 0; c < s.by_class.size(); ++c) {
    if (s.by_class[c] != 0) {
      out << " " << arch::OpClass_Name(static_cast<arch::OpClass>(c)) << "=" << s.by_class[c];
    }
  }
  out << "\n  memory:";
  for (int space = 1; space < traces::kMemSpaceCount; ++space) {
    for (int kind = 1; kind < traces::kAccessKindCount; ++kind) {
      if (const uint64_t n = s.memory[space][kind]; n != 0) {
        out << " " << traces::mem_space_name(static_cast<traces::MemSpace>(space)) << "_"
            << traces::access_kind_name(static_cast<traces::AccessKind>(kind)) << "=" << n;
      }
    }
  }
  out << "\n  footprint: " << s.device_sectors * traces::kSectorBytes << " B of device memory ("
      << s.device_sectors << " sectors of 32 B), " << s.bytes_requested << " B requested\n";
  if (!s.unknown_opcodes.empty()) {
    out << "  opcodes without an ISA-table entry:";
    for (const auto& m : s.unknown_opcodes) out << " " << m;
    out << "\n";
  }
}

int info(const std::string& path, CommandIo& io) {
  const auto source = traces::open_trace(path);
  std::ostream& out = io.out;
  out << "trace " << path << "\n";
  if (const auto* w = dynamic_cast<const traces::wstrace::WstraceSource*>(source.get())) {
    out << "  .wstrace written by " << w->file().header().tool() << " "
        << w->file().header().tool_version() << "\n";
  }
  traces::KernelInfo kernel;
  traces::CtaTrace cta;
  std::string text;
  uint64_t traceg_bytes = 0, kernels = 0, ctas = 0, instructions = 0;
  bool nvidia = true;
  while (source->next_kernel(kernel)) {
    traces::KernelSummarizer summarizer(kernel);
    const uint32_t version = traces::accelsim::writer_version(kernel);
    nvidia = nvidia && traces::is_nvidia(kernel.isa);
    text.clear();
    traces::accelsim::format_traceg_header(kernel, version, text);
    traceg_bytes += text.size();
    while (source->next_cta(cta)) {
      summarizer.add(cta);
      if (nvidia) {
        text.clear();
        traces::accelsim::format_traceg_cta(kernel, version, cta, text);
        traceg_bytes += text.size();
      }
    }
    const traces::KernelSummary s = summarizer.finish();
    print_kernel(out, kernels, kernel, s);
    ++kernels;
    ctas += s.ctas;
    instructions += s.warp_instructions;
  }
  const uint64_t bytes = trace_bytes(path, *source);
  out << "total: " << kernels << " kernels, " << ctas << " CTAs, " << instructions
      << " warp instructions\nfile size: " << bytes << " B";
  if (nvidia && bytes > 0) {
    out << "; as uncompressed .traceg: " << traceg_bytes << " B; compression ratio " << std::fixed
        << std::setprecision(2) << double(traceg_bytes) / double(bytes) << "x";
  }
  out << "\n";
  return kExitOk;
}

int convert(std::unique_ptr<traces::KernelSource> source, const std::string& out_path,
            const std::string& to, CommandIo& io) {
  traces::TraceFormat format{};
  if (to.empty()) {
    format = traces::trace_format_of(out_path);
  } else if (const auto parsed = traces::parse_trace_format(to)) {
    format = *parsed;
  } else {
    throw InputError("--to: expected wstrace, accelsim or accelsim-xz, got '" + to + "'");
  }
  const traces::TraceWriteStats stats = traces::write_trace(*source, out_path, format);
  io.out << "wrote " << out_path << ": " << stats.kernels << " kernels, " << stats.ctas
         << " CTAs, " << stats.instructions << " warp instructions, " << stats.bytes << " B\n";
  return kExitOk;
}

}  // namespace

int trace_command(const Args& args, CommandIo& io) {
  std::vector<std::string> words;
  std::string to;
  std::string workload;
  std::vector<std::string> params;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--help" || word == "-h") {
      print_usage(io.out, kUsage, po::options_description());
      return kExitOk;
    }
    if (word == "--to" && i + 1 < args.size()) {
      to = args[++i];
    } else if (word == "--workload" && i + 1 < args.size()) {
      workload = args[++i];
    } else if (word == "--param" && i + 1 < args.size()) {
      params.push_back(args[++i]);
    } else if (!word.empty() && word.front() == '-') {
      throw InputError("unknown option '" + word + "'\nusage: " + kUsage.synopsis);
    } else {
      words.push_back(word);
    }
  }
  if (words.empty()) throw InputError("missing action\nusage: " + kUsage.synopsis);
  const auto expect = [&](size_t count, const char* synopsis) {
    if (words.size() - 1 != count) {
      throw InputError(words.front() + ": expected " + std::to_string(count) +
                       " argument(s)\nusage: warpsim trace " + synopsis);
    }
  };
  if (words.front() == "info") {
    expect(1, "info <file>");
    if (!to.empty() || !workload.empty()) {
      throw InputError("info: --to and --workload apply to convert only");
    }
    return info(words[1], io);
  }
  if (words.front() == "convert" && !workload.empty()) {
    expect(1, "convert --workload <name> [--param k=v ...] <out> [--to FORMAT]");
    const workloads::Workload& model = workloads::find_workload(workload);
    const workloads::Params values =
        workloads::Params::parse(model.params(), params, std::string(model.name()));
    return convert(model.make_source(values), words[1], to, io);
  }
  if (words.front() == "convert") {
    if (!params.empty()) throw InputError("convert: --param needs --workload");
    expect(2, "convert <in> <out> [--to FORMAT]");
    return convert(traces::open_trace(words[1]), words[2], to, io);
  }
  throw InputError("unknown action '" + words.front() + "'\nusage: " + kUsage.synopsis);
}

}  // namespace warpsim::cli
