// `warpsim run`: simulate a workload model or a trace file on an architecture description.
// The options are the contract of DESIGN.md; the simulation itself arrives with the SM and memory
// models, and until then the command validates its arguments and says the model is not built.
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"

namespace warpsim::cli {

int run_command(const Args& args, CommandIo& io) {
  po::options_description options("options");
  options.add_options()
      ("arch", po::value<std::string>()->default_value("h200"),
       "architecture preset (h200, nvidia/b200, ...) or a .textproto file")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override a field of the description: --set path=value (repeatable)")
      ("workload", po::value<std::string>(), "built-in workload model to simulate")
      ("param", po::value<std::vector<std::string>>()->composing(),
       "workload parameter k=v (repeatable)")
      ("trace", po::value<std::string>(), "trace file to simulate (.wstrace, kernelslist.g)")
      ("json", po::value<std::string>(), "write the results as JSON to FILE")
      ("csv", po::value<std::string>(), "write the results as long-format CSV to FILE")
      ("timeline", po::value<std::string>(), "write a Chrome/Perfetto timeline to FILE.json")
      ("threads", po::value<unsigned>()->default_value(1), "simulation threads")
      ("quiet,q", po::bool_switch(), "no progress bar");
  const Usage usage{
      "warpsim run --arch <preset|file.textproto> [--set path=value ...]\n"
      "                   (--workload <name> [--param k=v ...] | --trace <file>)\n"
      "                   [--json FILE] [--csv FILE] [--timeline FILE.json] [--threads N] "
      "[--quiet]",
      "Simulates a workload model or a trace on an architecture and reports Nsight Compute-named\n"
      "metrics per kernel."};
  const auto vm = parse_args(args, options, {}, usage, io);
  if (!vm) return kExitOk;
  const bool has_workload = vm->count("workload") > 0;
  const bool has_trace = vm->count("trace") > 0;
  if (has_workload == has_trace) {
    throw InputError("give exactly one of --workload <name> or --trace <file>\nusage: " +
                     usage.synopsis);
  }
  if (vm->at("threads").as<unsigned>() == 0) {
    throw InputError("--threads: expected a positive number of threads, got 0");
  }
  not_built("warpsim run", "the SM and memory model that simulates kernels");
}

}  // namespace warpsim::cli
