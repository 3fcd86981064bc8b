// Replays profiled kernels on the cycle model: for each kernel, its plan simulated on the preset of
// the GPU it was measured on (a self-check against the measurement) and on a target architecture,
// with the analytical bound on both. The source preset comes from the profile's GPU name
// ("NVIDIA H200" → h200) or, failing that, its SM version.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/gpu/source_profile.h"
#include "sim/replay/bound.h"
#include "sim/replay/replay_plan.h"
#include "sim/stats/report.h"
#include "traces/ncu/profile.h"

namespace warpsim::replay {

struct ReplayOptions {
  std::string target = "h200";                     ///< Target preset or .textproto.
  std::vector<std::string> target_overrides;       ///< --set path=value on the target.
  bool self_check = true;                          ///< Also simulate on the source preset.
  unsigned threads = 1;                            ///< Simulation threads.
  bool source_profile = false;  ///< Record the target run's per-PC issues and stalls.
  std::function<void(const std::string&)> warn{};  ///< Receives configuration warnings.
  std::function<void(size_t kernel, const std::string& what)> progress{};  ///< Before each run.
};

/// One kernel's replay.
struct KernelReplay {
  traces::ncu::KernelProfile profile;
  PlanFidelity fidelity = PlanFidelity::kOpcodeMix;
  std::string source_arch;                    ///< Preset name of the measured GPU.
  std::optional<stats::KernelReport> source;  ///< Simulated on the source preset.
  stats::KernelReport target;                 ///< Simulated on the target.
  /// The target run's issues and stalls per PC (ReplayOptions::source_profile).
  std::optional<gpu::KernelSourceProfile> target_source;
  Bound source_bound, target_bound;
  double source_sm_mhz = 0, target_sm_mhz = 0;  ///< The presets' SM clocks.
};

/// The preset that models the GPU `profile` was measured on ("h200", "h100", "b200", "a100").
std::string source_preset(const traces::ncu::KernelProfile& profile);

/// Replays every profile. Throws InputError for kernels that cannot be planned or configured.
std::vector<KernelReplay> replay_profiles(const std::vector<traces::ncu::KernelProfile>& profiles,
                                          const ReplayOptions& options);

/// The number of `metric` in a simulated report, or nullopt.
std::optional<double> simulated(const stats::KernelReport& report, std::string_view metric);

}  // namespace warpsim::replay
