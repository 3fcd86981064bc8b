#include "sim/replay/replay.h"

#include <cctype>
#include <map>
#include <memory>

#include "arch/error.h"
#include "arch/loader.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "sim/replay/profile_source.h"

namespace warpsim::replay {
namespace {

struct Target {
  arch::LoadedSpec spec;
  gpu::GpuConfig config;
};

const Target& target_for(std::map<std::string, std::unique_ptr<Target>>& cache,
                         const std::string& key, const std::string& name,
                         const std::vector<std::string>& overrides, const ReplayOptions& options) {
  auto& slot = cache[key];
  if (!slot) {
    arch::LoadedSpec spec = arch::load_spec(name, overrides);
    gpu::GpuConfig config = gpu::gpu_config_from_spec(spec.spec);
    if (options.warn) {
      for (const std::string& w : config.warnings) options.warn(name + ": " + w);
    }
    slot = std::make_unique<Target>(Target{std::move(spec), std::move(config)});
  }
  return *slot;
}

stats::KernelReport simulate_plan(const ReplayPlan& plan, const gpu::GpuConfig& config,
                                  const ReplayOptions& options,
                                  gpu::SourceProfile* source_profile = nullptr) {
  ProfileKernelSource source({plan}, "ncu replay of " + plan.info.name);
  gpu::SimulationOptions sim;
  sim.threads = options.threads;
  sim.source_profile = source_profile;
  auto reports = gpu::simulate(config, source, sim);
  if (reports.empty()) throw InternalError("replay: the simulation reported no kernel");
  return std::move(reports.front());
}

}  // namespace

std::string source_preset(const traces::ncu::KernelProfile& p) {
  const std::string& gpu = p.source_gpu;
  for (const char* name : {"H200", "H100", "B200", "A100"}) {
    if (gpu.find(name) != std::string::npos) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return lower;
    }
  }
  if (gpu.find("MI300") != std::string::npos) return "mi300x";
  if (p.sm_version >= 100) return "b200";
  if (p.sm_version >= 90) return "h100";
  if (p.sm_version >= 80) return "a100";
  return "h200";
}

std::optional<double> simulated(const stats::KernelReport& report, std::string_view metric) {
  const stats::Sample* s = report.snapshot.find(metric);
  if (s == nullptr || stats::is_undefined(s->value)) return std::nullopt;
  return stats::to_double(s->value);
}

std::vector<KernelReplay> replay_profiles(const std::vector<traces::ncu::KernelProfile>& profiles,
                                          const ReplayOptions& options) {
  std::map<std::string, std::unique_ptr<Target>> cache;
  const Target& target =
      target_for(cache, "target", options.target, options.target_overrides, options);
  std::vector<KernelReplay> out;
  for (size_t i = 0; i < profiles.size(); ++i) {
    KernelReplay r;
    r.profile = profiles[i];
    const ReplayPlan plan = plan_from_profile(r.profile);
    r.fidelity = plan.fidelity;
    r.source_arch = source_preset(r.profile);
    r.target_sm_mhz = target.config.sm_mhz;
    r.target_bound = analytical_bound(plan, r.profile, target.spec.spec);
    if (options.self_check) {
      const Target& source =
          target_for(cache, "source " + r.source_arch, r.source_arch, {}, options);
      r.source_sm_mhz = source.config.sm_mhz;
      r.source_bound = analytical_bound(plan, r.profile, source.spec.spec);
      if (options.progress) options.progress(i, "on " + r.source_arch);
      r.source = simulate_plan(plan, source.config, options);
    }
    if (options.progress) options.progress(i, "on " + options.target);
    std::unique_ptr<gpu::SourceProfile> profile;
    if (options.source_profile) profile = std::make_unique<gpu::SourceProfile>(target.config.sms);
    r.target = simulate_plan(plan, target.config, options, profile.get());
    if (profile && !profile->kernels().empty()) r.target_source = profile->kernels().front();
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace warpsim::replay
