// `warpsim validate --calibrate`: fits the description's calibration targets
// (validate/calibration.h) to a reference's calibration points with the cycle model and prints the
// fitted values as description lines with their sources, to paste into the preset.
#pragma once

#include <string>
#include <vector>

#include "sim/cli/command.h"
#include "validate/reference.h"

namespace warpsim::cli {

/// Runs the fit for architecture `arch` (with `sets` applied) and prints the table and the lines.
/// A non-empty `only` (comma-separated texts) fits just the parameters whose path contains one of
/// them; the others keep their values.
void run_calibration(const validate::Reference& reference, const std::string& reference_dir,
                     const std::string& arch, const std::vector<std::string>& sets,
                     unsigned threads, const std::string& only, CommandIo& io);

}  // namespace warpsim::cli
