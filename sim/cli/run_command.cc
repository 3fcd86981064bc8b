// `warpsim run`: simulate a workload model or a trace file on an architecture description and
// report every kernel with Nsight Compute's metric names: a text report on stdout, and optionally
// JSON, long-format CSV, a Perfetto timeline, a per-PC source profile and a per-CTA log.
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "arch/error.h"
#include "arch/loader.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"
#include "sim/cli/progress.h"
#include "sim/cli/version.h"
#include "sim/gpu/cta_log.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "sim/gpu/timeline.h"
#include "sim/stats/csv_writer.h"
#include "sim/stats/json_writer.h"
#include "sim/stats/text_writer.h"
#include "traces/replay_source.h"
#include "traces/trace_files.h"
#include "workloads/workload.h"

namespace warpsim::cli {
namespace {

std::vector<std::string> strings(const po::variables_map& vm, const char* name) {
  return vm.count(name) ? vm.at(name).as<std::vector<std::string>>() : std::vector<std::string>{};
}

// Opens `path` for writing before the simulation starts, so a bad path fails fast.
std::unique_ptr<std::ofstream> open_output(const po::variables_map& vm, const char* option) {
  if (!vm.count(option)) return nullptr;
  const std::string path = vm.at(option).as<std::string>();
  auto out = std::make_unique<std::ofstream>(path);
  if (!*out) throw InputError("--" + std::string(option) + " " + path + ": cannot open for writing");
  return out;
}

}  // namespace

int run_command(const Args& args, CommandIo& io) {
  po::options_description options("options");
  options.add_options()
      ("arch", po::value<std::string>()->default_value("h200"),
       "architecture preset (h200, nvidia/b200, ...) or a .textproto file")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override a field of the description: --set path=value (repeatable)")
      ("workload", po::value<std::string>(), "built-in workload model to simulate")
      ("param", po::value<std::vector<std::string>>()->composing(),
       "workload parameter k=v (repeatable)")
      ("trace", po::value<std::string>(), "trace file to simulate (.wstrace, kernelslist.g)")
      ("json", po::value<std::string>(), "write the results as JSON to FILE")
      ("csv", po::value<std::string>(), "write the results as long-format CSV to FILE")
      ("timeline", po::value<std::string>(), "write a Chrome/Perfetto timeline to FILE.json")
      ("timeline-events", po::value<std::uint64_t>()->default_value(4'000'000),
       "events the timeline keeps (shared evenly by the SMs; later ones are dropped)")
      ("source", po::value<std::string>(),
       "write each PC's executions and stall cycles per reason (ncu's source page) as CSV to FILE")
      ("cta-log", po::value<std::string>(),
       "write each CTA's SM, slot, launch and retire cycle as a tab-separated table to FILE")
      ("threads", po::value<unsigned>()->default_value(1), "simulation threads")
      ("quiet,q", po::bool_switch(), "no progress bar");
  const Usage usage{
      "warpsim run --arch <preset|file.textproto> [--set path=value ...]\n"
      "                   (--workload <name> [--param k=v ...] | --trace <file>)\n"
      "                   [--json FILE] [--csv FILE] [--timeline FILE.json [--timeline-events N]]\n"
      "                   [--source FILE.csv] [--cta-log FILE.tsv] [--threads N] [--quiet]",
      "Simulates a workload model or a trace on an architecture and reports Nsight Compute-named\n"
      "metrics per kernel. `warpsim workload list` names the models."};
  const auto vm = parse_args(args, options, {}, usage, io);
  if (!vm) return kExitOk;
  const bool has_workload = vm->count("workload") > 0;
  const bool has_trace = vm->count("trace") > 0;
  if (has_workload == has_trace) {
    throw InputError("give exactly one of --workload <name> or --trace <file>\nusage: " +
                     usage.synopsis);
  }
  const unsigned threads = vm->at("threads").as<unsigned>();
  if (threads == 0) throw InputError("--threads: expected a positive number of threads, got 0");

  const arch::LoadedSpec spec = arch::load_spec(vm->at("arch").as<std::string>(), strings(*vm, "set"));
  const gpu::GpuConfig config = gpu::gpu_config_from_spec(spec.spec);
  for (const std::string& w : config.warnings) io.err << "warpsim run: warning: " << w << "\n";
  std::unique_ptr<traces::KernelSource> source;
  traces::ReplaySource* replay = nullptr;
  if (has_trace) {
    auto trace = std::make_unique<traces::ReplaySource>(
        traces::open_trace(vm->at("trace").as<std::string>()));
    replay = trace.get();
    source = std::move(trace);
  } else {
    const workloads::Workload& model =
        workloads::find_workload(vm->at("workload").as<std::string>());
    const workloads::Params params =
        workloads::Params::parse(model.params(), strings(*vm, "param"), std::string(model.name()));
    source = model.make_source(params);
  }

  auto json = open_output(*vm, "json");
  auto csv = open_output(*vm, "csv");
  auto timeline_file = open_output(*vm, "timeline");
  std::unique_ptr<gpu::Timeline> timeline;
  const std::uint64_t timeline_events = vm->at("timeline-events").as<std::uint64_t>();
  if (timeline_events == 0) {
    throw InputError("--timeline-events: expected at least 1 event, got 0");
  }
  if (timeline_file) {
    timeline = std::make_unique<gpu::Timeline>(config.sms, config.sm_mhz, timeline_events);
  }

  auto source_file = open_output(*vm, "source");
  std::unique_ptr<gpu::SourceProfile> source_profile;
  if (source_file) source_profile = std::make_unique<gpu::SourceProfile>(config.sms);

  auto cta_log_file = open_output(*vm, "cta-log");
  std::unique_ptr<gpu::CtaLog> cta_log;
  if (cta_log_file) cta_log = std::make_unique<gpu::CtaLog>(config.sms);

  ProgressBar bar(io.err, io.err_is_terminal && !vm->at("quiet").as<bool>());
  gpu::SimulationOptions sim;
  sim.threads = threads;
  sim.timeline = timeline.get();
  sim.source_profile = source_profile.get();
  sim.cta_log = cta_log.get();
  ProgressState state;
  state.kernels_total = 1;
  sim.progress = [&](const gpu::RunProgress& p) {
    state.kernels_done = p.kernels_done;
    state.ctas_retired = p.ctas_retired;
    state.ctas_total = p.ctas_total;
    state.simulated_cycles = p.simulated_cycles;
    state.warp_instructions = p.warp_instructions;
    bar.update(state);
  };
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t instructions = 0;
  stats::RunReport report;
  report.kernels = gpu::simulate(config, *source, sim, &instructions);
  report.simulation.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.kernels_done = report.kernels.size();
  state.warp_instructions = instructions;
  bar.finish(state);
  if (replay != nullptr) {
    if (const auto target = traces::parse_isa(spec.spec.isa())) {
      for (const std::string& w : replay->warnings(*target)) {
        io.err << "warpsim run: warning: " << w << "\n";
      }
    }
  }
  report.warpsim_version = kVersion;
  report.arch_name = config.name;
  report.set_arch_config(spec.spec);
  report.simulation.warp_instructions = instructions;
  report.simulation.threads = threads;

  stats::write_text(report, io.out);
  if (json) stats::write_json(report, *json);
  if (csv) stats::write_csv(report, *csv);
  if (source_profile) source_profile->write_csv(*source_file);
  if (cta_log) cta_log->write_tsv(*cta_log_file);
  if (timeline) {
    timeline->write(*timeline_file);
    if (timeline->dropped() > 0) {
      io.err << "warpsim run: warning: the timeline kept " << timeline->recorded()
             << " events and dropped " << timeline->dropped()
             << " (each SM's share of --timeline-events " << timeline_events
             << " ran out); raise --timeline-events to keep them\n";
    }
  }
  return kExitOk;
}

}  // namespace warpsim::cli
