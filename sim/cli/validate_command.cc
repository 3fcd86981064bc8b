// `warpsim validate`: simulates every point of a reference captured on a real GPU (workload model
// and parameters as the CUDA twin was launched), compares the simulated Nsight Compute metrics
// with the measured ones, prints the per-point table and per-metric summary, optionally writes a
// Markdown report with an SVG scatter plot, and exits 1 when a recorded threshold is missed.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <optional>
#include <ostream>
#include <fstream>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "arch/error.h"
#include "arch/loader.h"
#include "sim/cli/calibrate.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "validate/reference.h"
#include "validate/saved_runs.h"
#include "validate/report.h"
#include "validate/thresholds.h"
#include "sim/cli/point_params.h"
#include "workloads/workload.h"

namespace warpsim::cli {
namespace {

// A point's simulations: as placed in the reference, then (--placements) once per pad in
// `pads_mb`. Each simulation is a task of its own, so a point's placements run side by side on
// `--jobs` (each task holds the memory of one simulation).
struct Job {
  const validate::ReferencePoint* point = nullptr;
  std::vector<int64_t> pads_mb;
};

// One simulation of a job: the point as placed (no pad) or at `pads_mb[pad]`.
struct Task {
  std::size_t job = 0;
  std::optional<std::size_t> pad;
};

validate::PointResult simulate_point(const validate::ReferencePoint& point,
                                     std::optional<int64_t> pad_mb, const gpu::GpuConfig& config,
                                     unsigned threads, double max_instructions) {
  validate::PointResult result;
  result.point = &point;
  const auto measured = point.measured.find("smsp__inst_executed.sum");
  if (max_instructions > 0 && measured != point.measured.end() &&
      measured->second > max_instructions) {
    result.failure = "skipped (more than --max-instructions)";
    return result;
  }
  try {
    const workloads::Workload& model = workloads::find_workload(point.kernel);
    std::vector<std::string> params = model_params(model, point.params);
    if (pad_mb) params.push_back("pad_mb=" + std::to_string(*pad_mb));
    auto source =
        model.make_source(workloads::Params::parse(model.params(), params, point.kernel));
    gpu::SimulationOptions options;
    options.threads = threads;
    const auto reports = gpu::simulate(config, *source, options);
    if (reports.empty()) throw InternalError("no kernel simulated");
    for (const auto& sample : reports.front().snapshot.metrics) {
      if (!stats::is_undefined(sample.value)) {
        result.simulated[sample.name] = stats::to_double(sample.value);
      }
    }
  } catch (const InputError& e) {
    result.failure = e.what();
  }
  return result;
}

// Simulates `points` (results in the same order), `jobs` simulations at a time: the largest (by
// measured warp instructions) start first so that one long simulation does not finish alone at
// the end. A run found in `loaded` is taken from there. The placement runs' DRAM bytes land in the
// pads' order whatever order they finish in. With `save`, every run's figures are written there
// in task order.
std::vector<validate::PointResult> simulate_points(const std::vector<Job>& points,
                                                   const gpu::GpuConfig& config, unsigned threads,
                                                   unsigned jobs, double max_instructions,
                                                   const validate::SavedRuns& loaded,
                                                   std::ostream* save, std::ostream& progress) {
  std::vector<Task> tasks;
  for (std::size_t k = 0; k < points.size(); ++k) {
    tasks.push_back({k, std::nullopt});
    for (std::size_t p = 0; p < points[k].pads_mb.size(); ++p) tasks.push_back({k, p});
  }
  const auto pad_of = [&](const Task& task) -> std::optional<int64_t> {
    if (!task.pad) return std::nullopt;
    return points[task.job].pads_mb[*task.pad];
  };
  std::vector<validate::SavedRun> runs(tasks.size());
  std::vector<std::size_t> to_simulate;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto it = loaded.find({points[tasks[t].job].point->name, pad_of(tasks[t])});
    if (it == loaded.end()) {
      to_simulate.push_back(t);
    } else {
      runs[t] = it->second;
    }
  }
  if (to_simulate.size() < tasks.size()) {
    progress << tasks.size() - to_simulate.size() << " of " << tasks.size()
             << " runs taken from --load-runs\n";
  }
  std::mutex progress_mutex;
  std::size_t done = 0;
  // Runs task t and reports it on `progress` (standard error: stdout stays deterministic).
  const auto run_one = [&](std::size_t t) {
    const auto start = std::chrono::steady_clock::now();
    const Task& task = tasks[t];
    const Job& job = points[task.job];
    validate::PointResult result =
        simulate_point(*job.point, pad_of(task), config, threads, max_instructions);
    runs[t].simulated = std::move(result.simulated);
    runs[t].failure = std::move(result.failure);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const std::lock_guard lock(progress_mutex);
    progress << "[" << ++done << "/" << to_simulate.size() << "] " << job.point->name
             << (task.pad ? " at pad_mb=" + std::to_string(*pad_of(task)) : "") << ": "
             << std::fixed << std::setprecision(1) << took.count() << " s\n";
  };
  std::vector<std::string> internal_errors(tasks.size());
  if (jobs <= 1) {
    for (const std::size_t t : to_simulate) run_one(t);
  } else {
    const auto size = [&](std::size_t t) {
      const auto& measured = points[tasks[t].job].point->measured;
      const auto it = measured.find("smsp__inst_executed.sum");
      return it == measured.end() ? 0.0 : it->second;
    };
    std::stable_sort(to_simulate.begin(), to_simulate.end(),
                     [&](std::size_t a, std::size_t b) { return size(a) > size(b); });
    tbb::task_arena arena(static_cast<int>(jobs));
    arena.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, to_simulate.size(), 1),
          [&](const tbb::blocked_range<std::size_t>& range) {
            for (std::size_t i = range.begin(); i != range.end(); ++i) {
              const std::size_t t = to_simulate[i];
              try {
                run_one(t);
              } catch (const std::exception& e) {
                internal_errors[t] = points[tasks[t].job].point->name + ": " + e.what();
              }
            }
          },
          tbb::simple_partitioner());
    });
  }
  for (const std::string& error : internal_errors) {
    if (!error.empty()) throw InternalError(error);
  }
  if (save) {
    validate::write_saved_runs_header(*save);
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      validate::write_saved_run(*save, points[tasks[t].job].point->name, pad_of(tasks[t]),
                                runs[t]);
    }
  }
  // The point as placed, then its placement runs' DRAM bytes in the reference's pad order.
  std::vector<validate::PointResult> results(points.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    validate::PointResult& result = results[tasks[t].job];
    const validate::SavedRun& run = runs[t];
    if (!tasks[t].pad) {
      result.point = points[tasks[t].job].point;
      result.simulated = run.simulated;
      result.failure = run.failure;
      continue;
    }
    for (const char* metric : {"dram__bytes_read.sum", "dram__bytes_write.sum"}) {
      const auto value = run.simulated.find(metric);
      if (run.failure.empty() && value != run.simulated.end()) {
        result.simulated_placements[metric].push_back(value->second);
      }
    }
  }
  return results;
}

}  // namespace

int validate_command(const Args& args, CommandIo& io) {
  po::options_description options("options");
  options.add_options()
      ("reference", po::value<std::string>()->required(),
       "reference directory, e.g. validate/reference/h200")
      ("arch", po::value<std::string>()->default_value("h200"), "architecture to simulate")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override a field of the description: --set path=value (repeatable)")
      ("report", po::value<std::string>(), "write a Markdown report (and an SVG beside it) to FILE")
      ("thresholds", po::value<std::string>(),
       "thresholds file (default: thresholds.textproto two folders above the reference)")
      ("only", po::value<std::string>(),
       "simulate only points whose name contains this text (with --calibrate: fit only the "
       "parameters whose path contains it)")
      ("max-instructions", po::value<double>()->default_value(0),
       "skip points that executed more warp instructions than this on the GPU (0: none)")
      ("threads", po::value<unsigned>()->default_value(1), "simulation threads")
      ("jobs", po::value<unsigned>()->default_value(1),
       "points simulated at once (each a separate simulation; the output does not depend on it)")
      ("placements", po::bool_switch(),
       "also simulate the points whose measured DRAM bytes move by more than 5 % with the "
       "placement of their buffers at each placement of one_pass_placement.tsv (pad_mb), and "
       "compare the medians over placements")
      ("skip", po::value<std::vector<std::string>>()->composing(),
       "leave out the points whose name contains this text (repeatable)")
      ("save-runs", po::value<std::string>(),
       "write every simulation's figures to FILE (tab-separated), for --load-runs")
      ("load-runs", po::value<std::vector<std::string>>()->composing(),
       "take the simulations found in FILE (written by --save-runs, same build and options) "
       "instead of running them (repeatable): a validation split over machines or resumed")
      ("calibrate", po::bool_switch(),
       "fit the description's calibration parameters to the calibration points and print them");
  const Usage usage{"warpsim validate --reference <dir> [--arch <arch>] [--report FILE.md]",
                    "Simulates every reference point and compares it with the measurement."};
  const auto vm = parse_args(args, options, {}, usage, io);
  if (!vm) return kExitOk;
  const std::string dir = vm->at("reference").as<std::string>();
  const validate::Reference reference = validate::load_reference(dir);
  const std::string thresholds_path =
      vm->count("thresholds")
          ? vm->at("thresholds").as<std::string>()
          : (std::filesystem::path(dir).lexically_normal().parent_path().parent_path() /
             "thresholds.textproto")
                .string();
  const validate::Thresholds thresholds = validate::load_thresholds(thresholds_path);
  const std::vector<std::string> sets =
      vm->count("set") ? vm->at("set").as<std::vector<std::string>>() : std::vector<std::string>{};
  if (vm->at("calibrate").as<bool>()) {
    run_calibration(reference, dir, vm->at("arch").as<std::string>(), sets,
                    vm->at("threads").as<unsigned>(),
                    vm->count("only") ? vm->at("only").as<std::string>() : "", io);
    return kExitOk;
  }
  const arch::LoadedSpec spec = arch::load_spec(vm->at("arch").as<std::string>(), sets);
  const gpu::GpuConfig config = gpu::gpu_config_from_spec(spec.spec);

  validate::ValidationRun run;
  run.reference_dir = dir;
  run.gpu = reference.gpu;
  run.arch = config.name;
  const std::string only = vm->count("only") ? vm->at("only").as<std::string>() : "";
  const bool placements = vm->at("placements").as<bool>();
  if (placements && reference.placement_pads_mb.empty()) {
    throw InputError("--placements: " + dir +
                     "/one_pass_placement.tsv is missing or its columns are not labelled "
                     "metric:pad<MiB>");
  }
  const std::vector<std::string> skips =
      vm->count("skip") ? vm->at("skip").as<std::vector<std::string>>() : std::vector<std::string>{};
  validate::SavedRuns loaded;
  if (vm->count("load-runs")) {
    for (const std::string& path : vm->at("load-runs").as<std::vector<std::string>>()) {
      std::ifstream in(path);
      if (!in) throw InputError("--load-runs " + path + ": cannot open for reading");
      validate::read_saved_runs(in, path, loaded);
    }
  }
  std::ofstream save;
  if (vm->count("save-runs")) {
    const std::string path = vm->at("save-runs").as<std::string>();
    save.open(path);
    if (!save) throw InputError("--save-runs " + path + ": cannot open for writing");
  }
  std::vector<Job> jobs;
  for (const auto& point : reference.points) {
    if (!only.empty() && point.name.find(only) == std::string::npos) continue;
    if (std::any_of(skips.begin(), skips.end(), [&](const std::string& skip) {
          return point.name.find(skip) != std::string::npos;
        })) {
      continue;
    }
    jobs.push_back({&point, {}});
    if (placements && validate::placement_sensitive(point)) {
      jobs.back().pads_mb = reference.placement_pads_mb;
    }
  }
  run.results = simulate_points(jobs, config, vm->at("threads").as<unsigned>(),
                                vm->at("jobs").as<unsigned>(),
                                vm->at("max-instructions").as<double>(), loaded,
                                save.is_open() ? &save : nullptr, io.err);
  run.summaries = validate::summarize_all(run.results);
  if (only.empty() && skips.empty()) run.threshold_failures = validate::check_thresholds(thresholds, run.summaries);
  validate::write_table(io.out, run);
  if (vm->count("report")) {
    const std::filesystem::path md = vm->at("report").as<std::string>();
    std::filesystem::path svg = md;
    svg.replace_extension(".svg");
    std::ofstream md_out(md), svg_out(svg);
    if (!md_out || !svg_out) throw InputError("--report " + md.string() + ": cannot open for writing");
    validate::write_markdown(md_out, run, svg.filename().string());
    validate::write_svg(svg_out, run);
  }
  return run.threshold_failures.empty() ? kExitOk : kExitThreshold;
}

}  // namespace warpsim::cli
