// Errors that reach the user. Every layer of warpsim throws these instead of asserting on input;
// the `warpsim` command maps them to its documented exit statuses (DESIGN.md, "The command line").
#pragma once

#include <stdexcept>
#include <string>

namespace warpsim {

/// Bad input: usage, configuration, trace or report. Exit status 2. The message names the file and
/// line, or the config field, and says what was expected.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A validation threshold was missed. Exit status 1.
class ThresholdError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Internal failure, such as the no-progress watchdog firing. Exit status 3.
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Exit statuses of the `warpsim` command.
enum ExitStatus : int {
  kExitOk = 0,
  kExitThreshold = 1,
  kExitBadInput = 2,
  kExitInternal = 3,
};

}  // namespace warpsim
