// Writes a RunReport as a text report laid out like Nsight Compute's details page: per kernel, one
// table per section (GPU Speed Of Light Throughput, Compute Workload Analysis, Memory Workload
// Analysis, Scheduler Statistics, Warp State Statistics, Instruction Statistics, Launch
// Statistics, Occupancy, ...) listing the ncu metrics of that section that the kernel has, with
// ncu's labels and units, aligned; then "Other Statistics" with warpsim's own stats by dotted name;
// then a "Simulation" table. Sections without any value are left out. Values are rounded for
// reading (thousands separators, two decimals); the JSON and CSV writers keep them exact.
#pragma once

#include <iosfwd>
#include <string>

#include "sim/stats/report.h"
#include "sim/stats/snapshot.h"

namespace warpsim::stats {

/// Writes the whole report to `out`.
void write_text(const RunReport& report, std::ostream& out);

/// A value as the text report prints it: "9,864", "6,141.52", "n/a".
std::string format_for_reading(const StatValue& value);

}  // namespace warpsim::stats
