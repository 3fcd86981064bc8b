// The report of one warpsim run, as the writers print it (DESIGN.md, "The command line"): the
// warpsim version, the architecture's name and resolved configuration, one entry per simulated
// kernel (name, grid, block and the snapshot of its metrics and stats), and facts about the
// simulation itself (wall time, warp instructions, rate, threads). Plain data; the writers
// (json_writer.h, csv_writer.h, text_writer.h) turn it into files.
#pragma once

#include <google/protobuf/message.h>
#include <google/protobuf/struct.pb.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/stats/snapshot.h"

namespace warpsim::stats {

/// One simulated kernel launch.
struct KernelReport {
  std::string name;                             ///< Kernel name as the trace gives it.
  std::array<std::uint32_t, 3> grid{1, 1, 1};   ///< Grid size in blocks (x, y, z).
  std::array<std::uint32_t, 3> block{1, 1, 1};  ///< Block size in threads (x, y, z).
  Snapshot snapshot;                            ///< Metrics and stats at the end of the kernel.
};

/// How the simulation itself went.
struct SimulationInfo {
  double wall_seconds = 0;              ///< Host wall-clock time of the simulation.
  std::uint64_t warp_instructions = 0;  ///< Warp instructions simulated, all kernels.
  std::uint32_t threads = 1;            ///< Host threads used.

  /// warp_instructions / wall_seconds, or 0 when no time was measured.
  double warp_instructions_per_second() const;
};

/// Everything one run reports.
struct RunReport {
  std::string warpsim_version;           ///< e.g. "0.1.0".
  std::string arch_name;                 ///< e.g. "H200".
  google::protobuf::Struct arch_config;  ///< The resolved architecture description.
  std::vector<KernelReport> kernels;     ///< In launch order.
  SimulationInfo simulation;

  /// Stores `config` (any protobuf message, e.g. the resolved arch description) as arch_config,
  /// with protobuf's JSON mapping and proto field names, default values included.
  void set_arch_config(const google::protobuf::Message& config);

  /// Stores a JSON object as arch_config. Throws warpsim::InputError naming `source` and the
  /// parser's complaint when `json` is not a JSON object.
  void set_arch_config_json(std::string_view json, std::string_view source);
};

}  // namespace warpsim::stats
