// The subcommands whose models are not built yet: `trace`.
// It parses its documented arguments (so --help and usage errors work now) and then reports, with
// exit status 2, which part is missing. Nothing succeeds silently.
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"

namespace warpsim::cli {
namespace {

// Parses `<action> [positionals...]` where each action takes a fixed number of positionals.
struct Action {
  const char* name;
  int positionals;
  const char* synopsis;
};

int dispatch_actions(const std::string& command, const Args& args, CommandIo& io,
                     const std::vector<Action>& actions, const std::string& description,
                     const std::string& missing) {
  std::string synopsis;
  for (const Action& a : actions) synopsis += std::string(synopsis.empty() ? "" : " | ") + a.synopsis;
  const Usage usage{command + " " + synopsis, description};
  for (const std::string& word : args) {
    if (word == "--help" || word == "-h") {
      print_usage(io.out, usage, po::options_description());
      return kExitOk;
    }
    if (!word.empty() && word.front() == '-') {
      throw InputError("unknown option '" + word + "'\nusage: " + usage.synopsis);
    }
  }
  if (args.empty()) throw InputError("missing action\nusage: " + usage.synopsis);
  const Args& words = args;
  for (const Action& a : actions) {
    if (words.front() != a.name) continue;
    if (static_cast<int>(words.size()) - 1 != a.positionals) {
      throw InputError(std::string(a.name) + ": expected " + std::to_string(a.positionals) +
                       " argument(s)\nusage: " + command + " " + a.synopsis);
    }
    not_built(command + " " + a.name, missing);
  }
  throw InputError("unknown action '" + words.front() + "'\nusage: " + usage.synopsis);
}

}  // namespace

int trace_command(const Args& args, CommandIo& io) {
  return dispatch_actions("warpsim trace", args, io,
                          {{"info", 1, "info <file>"}, {"convert", 2, "convert <in> <out>"}},
                          "Inspects trace files and converts between the native .wstrace format\n"
                          "and Accel-Sim traces.",
                          "the trace file readers and writers");
}

}  // namespace warpsim::cli
