// The top level of the `warpsim` command: subcommand dispatch and the mapping of warpsim's errors
// to exit statuses (0 ok, 1 threshold missed, 2 bad input, 3 internal failure).
#include <array>
#include <exception>
#include <ostream>
#include <string_view>

#include "arch/error.h"
#include "sim/cli/command.h"
#include "sim/cli/version.h"

namespace warpsim::cli {
namespace {

struct Subcommand {
  std::string_view name;
  std::string_view summary;
  int (*run)(const Args&, CommandIo&);
};

constexpr std::array<Subcommand, 6> kSubcommands = {{
    {"run", "simulate a workload or a trace on an architecture", run_command},
    {"arch", "list, show and compare architecture descriptions", arch_command},
    {"workload", "list and describe the built-in workload models", workload_command},
    {"trace", "inspect and convert trace files", trace_command},
    {"validate", "compare simulations with reference measurements from a real GPU",
     validate_command},
    {"replay", "replay Nsight Compute reports on any architecture", replay_command},
}};

void print_top_usage(std::ostream& os) {
  os << "usage: warpsim <command> [options]\n\n"
        "warpsim is a cycle-approximate, trace-driven GPU simulator.\n\ncommands:\n";
  for (const Subcommand& c : kSubcommands) {
    os << "  " << c.name << std::string(10 - c.name.size(), ' ') << c.summary << "\n";
  }
  os << "\nRun 'warpsim <command> --help' for a command's options.\n"
        "Exit status: 0 success, 1 a validation threshold was missed, 2 bad input, 3 internal "
        "failure.\n";
}

}  // namespace

int run_command_line(const Args& argv, CommandIo& io) {
  if (argv.empty()) {
    print_top_usage(io.err);
    return kExitBadInput;
  }
  const std::string& name = argv.front();
  if (name == "--help" || name == "-h" || name == "help") {
    print_top_usage(io.out);
    return kExitOk;
  }
  if (name == "--version") {
    io.out << "warpsim " << kVersion << "\n";
    return kExitOk;
  }
  for (const Subcommand& c : kSubcommands) {
    if (c.name != name) continue;
    const Args rest(argv.begin() + 1, argv.end());
    try {
      return c.run(rest, io);
    } catch (const InputError& e) {
      io.err << "warpsim " << name << ": error: " << e.what() << "\n";
      return kExitBadInput;
    } catch (const ThresholdError& e) {
      io.err << "warpsim " << name << ": threshold missed: " << e.what() << "\n";
      return kExitThreshold;
    } catch (const InternalError& e) {
      io.err << "warpsim " << name << ": internal failure: " << e.what() << "\n";
      return kExitInternal;
    } catch (const std::exception& e) {
      io.err << "warpsim " << name << ": internal failure: " << e.what() << "\n";
      return kExitInternal;
    }
  }
  io.err << "warpsim: unknown command '" << name << "'\n\n";
  print_top_usage(io.err);
  return kExitBadInput;
}

}  // namespace warpsim::cli
