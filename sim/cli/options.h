// Shared command-line plumbing for the subcommands: Boost.program_options parsing that turns every
// parse failure into warpsim::InputError (exit 2) and prints usage for --help.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>

#include "sim/cli/command.h"

namespace warpsim::cli {

namespace po = boost::program_options;

/// A subcommand's usage: the synopsis line(s), a one-paragraph description, and its options.
struct Usage {
  std::string synopsis;     ///< e.g. "warpsim arch show <arch> [--set path=value ...] [--json]"
  std::string description;  ///< What the command does, a few lines.
};

/// Parses `args` against `options` (plus --help) and `positional`. Returns std::nullopt after
/// printing usage to io.out when --help was given; throws InputError naming the offending option
/// and the synopsis when the arguments do not parse.
std::optional<po::variables_map> parse_args(const Args& args, const po::options_description& options,
                                            const po::positional_options_description& positional,
                                            const Usage& usage, CommandIo& io);

/// Prints usage (synopsis, description, options) to `os`.
void print_usage(std::ostream& os, const Usage& usage, const po::options_description& options);

/// Throws InputError for a subcommand whose model is not built yet: nothing is ever simulated or
/// written silently. `what` names the missing part.
[[noreturn]] void not_built(const std::string& command, const std::string& what);

}  // namespace warpsim::cli
