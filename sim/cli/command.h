// The `warpsim` command's subcommands. Each subcommand parses its own arguments with
// Boost.program_options, prints its usage for --help, writes results to `io.out` and diagnostics to
// `io.err`, and returns an exit status (DESIGN.md, "The command line"). Bad input is reported by
// throwing warpsim::InputError; the dispatcher prints it and returns 2. Commands never call exit().
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace warpsim::cli {

/// Where a command writes, and whether stderr is an interactive terminal (progress bars).
struct CommandIo {
  std::ostream& out;
  std::ostream& err;
  bool err_is_terminal = false;
};

/// Arguments after the subcommand name, e.g. {"show", "h200", "--json"} for `warpsim arch show h200 --json`.
using Args = std::vector<std::string>;

int arch_command(const Args& args, CommandIo& io);
int run_command(const Args& args, CommandIo& io);
int workload_command(const Args& args, CommandIo& io);
int trace_command(const Args& args, CommandIo& io);
int validate_command(const Args& args, CommandIo& io);
int replay_command(const Args& args, CommandIo& io);

/// Runs a whole command line (argv[0] excluded): dispatches on the subcommand, catches warpsim's
/// errors and maps them to exit statuses. Used by main() and by in-process tests.
int run_command_line(const Args& argv, CommandIo& io);

}  // namespace warpsim::cli
