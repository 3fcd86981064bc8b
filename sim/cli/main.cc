// Entry point of the `warpsim` command: forwards argv to run_command_line().
#include <unistd.h>

#include <iostream>

#include "sim/cli/command.h"
#include "sim/engine/huge_page_heap.h"

int main(int argc, char** argv) {
  warpsim::engine::use_huge_page_heap(argv);
  std::ios::sync_with_stdio(false);
  warpsim::cli::CommandIo io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1};
  const int status = warpsim::cli::run_command_line({argv + 1, argv + argc}, io);
  std::cout.flush();
  return status;
}
