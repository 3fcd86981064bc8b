// Simulated figures of `warpsim validate` kept in a file, so that one validation can be split over
// machines or resumed: `--save-runs FILE` writes every simulation's metrics, `--load-runs FILE`
// (repeatable) takes a point's simulation from such a file instead of running it. The simulator is
// deterministic, so a loaded run is the run it would have made with the same arch and options;
// the file records neither, and the caller is responsible for loading runs of the same build.
//
// Format: tab-separated text, a header `point	pad_mb	metric	value`, then one row per metric of
// each simulation: the reference point's name, the placement pad in MiB (`-` for the point as the
// reference placed it), the ncu metric name and its value printed to round-trip exactly. A run
// that failed has the single row `failure` with its message.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "validate/comparison.h"

namespace warpsim::validate {

/// One simulation of a point, as saved.
struct SavedRun {
  std::map<std::string, double> simulated;  ///< ncu metric → value.
  std::string failure;                      ///< Non-empty when the run failed.
};

/// Runs by (point name, pad in MiB or nullopt for the reference's placement).
using SavedRunKey = std::pair<std::string, std::optional<int64_t>>;
using SavedRuns = std::map<SavedRunKey, SavedRun>;

/// Writes the header.
void write_saved_runs_header(std::ostream& out);
/// Writes the rows of one run of `point` at `pad_mb`.
void write_saved_run(std::ostream& out, const std::string& point, std::optional<int64_t> pad_mb,
                     const SavedRun& run);

/// Reads the runs in `in` into `runs` (a later row for the same run and metric wins). `where`
/// names the file in messages. Throws InputError naming the line for a wrong header, a row without
/// four fields, a malformed pad or value.
void read_saved_runs(std::istream& in, const std::string& where, SavedRuns& runs);

}  // namespace warpsim::validate
