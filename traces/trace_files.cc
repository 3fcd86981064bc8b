#include "traces/trace_files.h"

#include <filesystem>

#include "arch/error.h"
#include "traces/accelsim/accelsim_source.h"
#include "traces/accelsim/accelsim_writer.h"
#include "traces/wstrace/wstrace_reader.h"
#include "traces/wstrace/wstrace_writer.h"

namespace warpsim::traces {

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "wstrace") return TraceFormat::kWstrace;
  if (name == "accelsim") return TraceFormat::kAccelSim;
  if (name == "accelsim-xz") return TraceFormat::kAccelSimXz;
  return std::nullopt;
}

TraceFormat trace_format_of(const std::string& path) {
  if (path.ends_with(".wstrace")) return TraceFormat::kWstrace;
  if (path.ends_with(".g") || path.ends_with(".traceg")) return TraceFormat::kAccelSim;
  if (path.ends_with(".traceg.xz")) return TraceFormat::kAccelSimXz;
  if (std::filesystem::is_directory(path) &&
      std::filesystem::exists(std::filesystem::path(path) / "kernelslist.g")) {
    return TraceFormat::kAccelSim;
  }
  throw InputError(path + ": unknown trace format; expected a .wstrace file, an Accel-Sim "
                   "kernelslist.g or a .traceg[.xz] file");
}

std::unique_ptr<KernelSource> open_trace(const std::string& path) {
  if (trace_format_of(path) == TraceFormat::kWstrace) {
    return std::make_unique<wstrace::WstraceSource>(path);
  }
  if (std::filesystem::is_directory(path)) {
    return std::make_unique<accelsim::AccelSimSource>(
        (std::filesystem::path(path) / "kernelslist.g").string());
  }
  return std::make_unique<accelsim::AccelSimSource>(path);
}

TraceWriteStats write_trace(KernelSource& source, const std::string& path, TraceFormat format) {
  if (format == TraceFormat::kWstrace) {
    const wstrace::WriteStats s = wstrace::write_wstrace(source, path);
    return {s.kernels, s.ctas, s.instructions, s.file_bytes};
  }
  const accelsim::AccelSimWriteStats s = accelsim::write_accelsim(
      source, path, accelsim::AccelSimWriteOptions{format == TraceFormat::kAccelSimXz});
  return {s.kernels, s.ctas, s.instructions, s.bytes};
}

}  // namespace warpsim::traces
