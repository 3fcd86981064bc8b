// Runs a warpsim command line in-process and captures its output and exit status.
#pragma once

#include <sstream>
#include <string>

#include "sim/cli/command.h"

namespace warpsim::cli::testing {

struct CommandResult {
  int status;
  std::string out;
  std::string err;
};

inline CommandResult run_cli(const Args& argv) {
  std::ostringstream out, err;
  CommandIo io{out, err, false};
  const int status = run_command_line(argv, io);
  return {status, out.str(), err.str()};
}

}  // namespace warpsim::cli::testing
