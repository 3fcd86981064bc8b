#include "sim/cli/options.h"

#include <ostream>

#include "arch/error.h"

namespace warpsim::cli {

void print_usage(std::ostream& os, const Usage& usage, const po::options_description& options) {
  os << "usage: " << usage.synopsis << "\n\n" << usage.description << "\n";
  if (!options.options().empty()) os << "\n" << options;
}

std::optional<po::variables_map> parse_args(const Args& args, const po::options_description& options,
                                            const po::positional_options_description& positional,
                                            const Usage& usage, CommandIo& io) {
  po::options_description all;
  all.add(options);
  all.add_options()("help,h", "show this help and exit");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      print_usage(io.out, usage, all);
      return std::nullopt;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string(e.what()) + "\nusage: " + usage.synopsis +
                     "\n(run with --help for the options)");
  }
  return vm;
}

void not_built(const std::string& command, const std::string& what) {
  throw InputError(command + ": " + what +
                   " is not built yet in this version of warpsim; nothing was run or written");
}

}  // namespace warpsim::cli
