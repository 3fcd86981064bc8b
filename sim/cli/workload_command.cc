// `warpsim workload list | show <name> [--param k=v ...]`: the built-in workload models, their
// parameters, and for `show` the launch and instruction mix they generate.
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"
#include "traces/isa/opcode_info.h"
#include "traces/kernel_info.h"
#include "traces/kernel_summary.h"
#include "workloads/workload.h"

namespace warpsim::cli {
namespace {

void list_workloads(std::ostream& out) {
  out << std::left << std::setw(22) << "workload" << std::setw(12) << "category"
      << "parameters (defaults)\n";
  for (const auto& w : workloads::all_workloads()) {
    std::string params;
    for (const auto& p : w->params()) {
      params += (params.empty() ? "" : " ") + p.name + "=" + std::to_string(p.default_value);
    }
    out << std::setw(22) << w->name() << std::setw(12) << w->category() << params << "\n";
  }
}

void show_workload(std::ostream& out, const workloads::Workload& w,
                   const std::vector<std::string>& params) {
  const workloads::Params values = workloads::Params::parse(w.params(), params, std::string(w.name()));
  out << w.name() << " (" << w.category() << "): " << w.description() << "\n\nparameters:\n";
  for (const auto& p : w.params()) {
    out << "  " << std::left << std::setw(16) << p.name << std::setw(12) << values.get(p.name)
        << p.description << " (default " << p.default_value << ")\n";
  }
  auto source = w.make_source(values);
  traces::KernelInfo info;
  if (!source->next_kernel(info)) throw InternalError("workload " + std::string(w.name()) +
                                                      " produced no kernel");
  out << "\nkernel " << info.name << "\n  grid " << traces::to_string(info.grid) << ", block "
      << traces::to_string(info.block) << ", " << info.registers_per_thread
      << " registers/thread, shared " << info.static_shared_bytes << " B static + "
      << info.dynamic_shared_bytes << " B dynamic\n";
  const traces::KernelSummary s = traces::summarize_kernel(info, *source);
  out << "  " << s.warp_instructions << " warp instructions, "
      << std::fixed << std::setprecision(2)
      << (s.warp_instructions ? double(s.thread_instructions) / double(s.warp_instructions) : 0.0)
      << " active threads per instruction, " << s.device_sectors * traces::kSectorBytes
      << " B device-memory footprint\n  by class:";
  for (size_t c = 0; c < s.by_class.size(); ++c) {
    if (s.by_class[c] == 0) continue;
    out << " " << arch::OpClass_Name(static_cast<arch::OpClass>(c)) << "=" << s.by_class[c];
  }
  out << "\n";
}

}  // namespace

int workload_command(const Args& args, CommandIo& io) {
  const Usage usage{"warpsim workload list | show <name> [--param k=v ...]",
                    "Lists the built-in workload models, or shows one: its parameters, the kernel\n"
                    "it launches and the instruction mix it generates (from the SASS listing of\n"
                    "its CUDA twin in workloads/cuda/)."};
  po::options_description options("options");
  options.add_options()("param", po::value<std::vector<std::string>>()->composing(),
                        "workload parameter k=v (repeatable, with show)");
  po::options_description hidden;
  hidden.add_options()("words", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("words", -1);
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      print_usage(io.out, usage, options);
      return kExitOk;
    }
  }
  const auto vm = parse_args(args, all, positional, usage, io);
  if (!vm) return kExitOk;
  const auto words =
      vm->count("words") ? vm->at("words").as<std::vector<std::string>>() : std::vector<std::string>{};
  const auto params =
      vm->count("param") ? vm->at("param").as<std::vector<std::string>>() : std::vector<std::string>{};
  if (words.empty()) throw InputError("missing action\nusage: " + usage.synopsis);
  if (words[0] == "list" && words.size() == 1) {
    list_workloads(io.out);
    return kExitOk;
  }
  if (words[0] == "show" && words.size() == 2) {
    show_workload(io.out, workloads::find_workload(words[1]), params);
    return kExitOk;
  }
  if (words[0] == "list" || words[0] == "show") {
    throw InputError(words[0] + ": wrong number of arguments\nusage: " + usage.synopsis);
  }
  throw InputError("unknown action '" + words[0] + "'\nusage: " + usage.synopsis);
}

}  // namespace warpsim::cli
