// The Nsight Compute (ncu) metrics that warpsim reports: for each, ncu's name, the unit ncu prints
// with `--print-units base` (checked against exports of ncu 2025.3 on an H200: "cycle", "ns",
// "inst", "byte", "sector", "%", "warp", "block", "register/thread", "" for dimensionless ratios
// and counts), the label ncu's details page shows ("Elapsed Cycles"), the details-page section it
// belongs to, and its meaning. A quantity ncu measures is reported under this name and unit so that
// simulated and measured values sit side by side without a mapping table. The catalogue lists
// names only; which of them a simulation fills in is up to the models.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::stats {

/// ncu details-page sections, in the order ncu prints them.
enum class Section : std::uint8_t {
  kSpeedOfLight,
  kComputeWorkload,
  kMemoryWorkload,
  kScheduler,
  kWarpState,
  kInstruction,
  kLaunch,
  kOccupancy,
  kWorkloadDistribution,
  kSourceCounters,
};

/// Every section, in ncu's order.
std::span<const Section> all_sections();

/// The section's title as ncu prints it ("GPU Speed Of Light Throughput").
std::string_view section_title(Section section);

/// One metric of the catalogue.
struct NcuMetric {
  std::string name;     ///< ncu's metric name, e.g. "gpc__cycles_elapsed.max".
  std::string unit;     ///< Base unit as ncu prints it; "" when ncu prints none.
  std::string label;    ///< ncu's details-page label, e.g. "Elapsed Cycles".
  Section section;      ///< Where the text report lists it.
  std::string meaning;  ///< One-line description.
};

/// The whole catalogue, grouped by section in ncu's order.
const std::vector<NcuMetric>& ncu_catalogue();

/// The entry named `name`, or nullptr when ncu has no such metric in the catalogue.
const NcuMetric* find_ncu_metric(std::string_view name);

/// The warp stall reasons as ncu names them (long_scoreboard, barrier, ...); each has
/// `smsp__average_warp_latency_issue_stalled_<reason>` and
/// `smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio` in the catalogue.
std::span<const std::string_view> stall_reasons();

/// Maps older ncu spellings of a unit to the current one ("nsecond" -> "ns", "usecond" -> "us",
/// "msecond" -> "ms", "second" -> "s"); any other unit is returned unchanged.
std::string_view canonical_unit(std::string_view unit);

}  // namespace warpsim::stats
