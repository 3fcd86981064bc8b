// `warpsim replay`: reads Nsight Compute reports and CSV exports, and for every profiled kernel
// prints what it measured on its GPU, what the cycle model predicts on that GPU's preset (a
// self-check), what it predicts on the target, the speedup, and the bottleneck the analytical
// bound names; optionally the same as JSON with ncu metric names.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"
#include "sim/cli/version.h"
#include "sim/replay/replay.h"
#include "sim/replay/source_comparison.h"
#include "sim/stats/json_writer.h"
#include "traces/ncu/inputs.h"

namespace warpsim::cli {
namespace {

namespace pb = google::protobuf;
using replay::KernelReplay;

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Predicted duration in ns: the simulated metric, or cycles at the preset's clock.
std::optional<double> duration_ns(const stats::KernelReport& r, double sm_mhz) {
  if (const auto d = replay::simulated(r, "gpu__time_duration.sum")) return d;
  const auto c = replay::simulated(r, "gpc__cycles_elapsed.max");
  if (!c || sm_mhz <= 0) return std::nullopt;
  return *c / sm_mhz * 1e3;
}

// Source-to-target speedup: model against model when the self-check ran, else measured time.
std::optional<double> speedup(const KernelReplay& r) {
  const auto target = duration_ns(r.target, r.target_sm_mhz);
  const auto source = r.source ? duration_ns(*r.source, r.source_sm_mhz) : r.profile.duration_ns;
  if (!target || !source || *target <= 0) return std::nullopt;
  return *source / *target;
}

pb::Value number(double v) {
  pb::Value out;
  out.set_number_value(v);
  return out;
}

pb::Value text(const std::string& v) {
  pb::Value out;
  out.set_string_value(v);
  return out;
}

pb::Value dims(const traces::Dim3& d) {
  pb::Value out;
  for (uint32_t v : {d.x, d.y, d.z}) *out.mutable_list_value()->add_values() = number(v);
  return out;
}

pb::Value metrics(const stats::KernelReport& r) {
  pb::Value out;
  auto& fields = *out.mutable_struct_value()->mutable_fields();
  for (const stats::Sample& s : r.snapshot.metrics) {
    if (!stats::is_undefined(s.value)) fields[s.name] = number(stats::to_double(s.value));
  }
  return out;
}

pb::Value bound_json(const replay::Bound& b) {
  pb::Value out;
  auto& fields = *out.mutable_struct_value()->mutable_fields();
  fields["bottleneck"] = text(b.bottleneck);
  fields["cycles"] = number(b.cycles);
  fields["ns"] = number(b.ns);
  pb::Value terms;
  for (const replay::BoundTerm& t : b.terms) {
    (*terms.mutable_struct_value()->mutable_fields())[t.resource] = number(t.cycles);
  }
  fields["terms_cycles"] = terms;
  return out;
}

pb::Value kernel_json(const KernelReplay& r) {
  pb::Value out;
  auto& f = *out.mutable_struct_value()->mutable_fields();
  const auto& p = r.profile;
  f["name"] = text(p.name);
  f["input"] = text(p.input);
  f["grid"] = dims(p.grid);
  f["block"] = dims(p.block);
  f["source_gpu"] = text(p.source_gpu);
  f["source_arch"] = text(r.source_arch);
  f["fidelity"] = text(replay::fidelity_name(r.fidelity));
  pb::Value measured;
  auto& m = *measured.mutable_struct_value()->mutable_fields();
  for (const char* name :
       {"gpc__cycles_elapsed.max", "gpu__time_duration.sum", "smsp__inst_executed.sum",
        "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
        "l1tex__t_sector_hit_rate.pct", "gpc__cycles_elapsed.avg.per_second"}) {
    if (const auto v = p.metric(name)) m[name] = number(*v);
  }
  f["measured"] = measured;
  if (r.source) f["predicted_source"] = metrics(*r.source);
  f["predicted_target"] = metrics(r.target);
  if (const auto s = speedup(r)) f["speedup"] = number(*s);
  f["bound_target"] = bound_json(r.target_bound);
  if (r.source) f["bound_source"] = bound_json(r.source_bound);
  return out;
}

void write_header(const std::string& target, std::ostream& out) {
  out << "kernel | fidelity | measured cycles | source preset: predicted cycles (error) | "
      << target << ": predicted cycles, us | speedup | bottleneck (bound)\n";
}

void write_row(size_t index, const KernelReplay& r, std::ostream& out) {
  out << index << " " << r.profile.name << " | " << replay::fidelity_name(r.fidelity) << " | ";
  out << (r.profile.cycles ? fixed(*r.profile.cycles, 0) : "n/a") << " | ";
  if (r.source) {
    const auto c = replay::simulated(*r.source, "gpc__cycles_elapsed.max");
    out << r.source_arch << ": " << (c ? fixed(*c, 0) : "n/a");
    if (c && r.profile.cycles && *r.profile.cycles > 0) {
      out << " (" << fixed((*c / *r.profile.cycles - 1) * 100, 1) << " %)";
    }
  } else {
    out << "-";
  }
  const auto tc = replay::simulated(r.target, "gpc__cycles_elapsed.max");
  const auto td = duration_ns(r.target, r.target_sm_mhz);
  out << " | " << (tc ? fixed(*tc, 0) : "n/a") << ", " << (td ? fixed(*td / 1e3, 2) : "n/a");
  const auto s = speedup(r);
  out << " | " << (s ? fixed(*s, 2) + "x" : "n/a") << " | " << r.target_bound.bottleneck << " ("
      << fixed(r.target_bound.cycles, 0) << " cycles)" << std::endl;
}

// Parses "3,5,8-12" into a mask over `count` launches; InputError on anything else.
std::vector<bool> launch_list(const std::string& text, size_t count) {
  std::vector<bool> keep(count, false);
  const auto bad = [&](const std::string& why) {
    return InputError("--launch " + text + ": " + why +
                      " (expected launch numbers from 0 and ranges, like 3,5,8-12)");
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const size_t dash = item.find('-');
    size_t first = 0, last = 0;
    try {
      size_t used = 0;
      first = std::stoul(item.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? item.size() : dash)) throw bad("\"" + item + "\"");
      last = first;
      if (dash != std::string::npos) {
        last = std::stoul(item.substr(dash + 1), &used);
        if (used != item.size() - dash - 1) throw bad("\"" + item + "\"");
      }
    } catch (const std::logic_error&) {
      throw bad("\"" + item + "\" is not a number or range");
    }
    if (last < first) throw bad("range " + item + " runs backwards");
    if (last >= count) {
      throw bad("launch " + std::to_string(last) + " is past the last (" +
                std::to_string(count - 1) + ")");
    }
    for (size_t k = first; k <= last; ++k) keep[k] = true;
    pos = comma + 1;
  }
  return keep;
}

}  // namespace

int replay_command(const Args& args, CommandIo& io) {
  po::options_description options("options");
  options.add_options()("input", po::value<std::vector<std::string>>(), "ncu report or CSV export")(
      "arch", po::value<std::string>(), "target architecture (preset or .textproto)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a field of the target: --set path=value (repeatable)")(
      "json", po::value<std::string>(), "write the predictions as JSON to FILE")(
      "source", po::value<std::string>(),
      "write each PC's measured and simulated executions and stall shares as CSV to FILE")(
      "no-self-check", po::bool_switch(), "do not simulate on the source GPU's preset")(
      "kernel", po::value<std::string>(), "replay only kernels whose name contains this text")(
      "launch", po::value<std::string>(),
      "replay only these launches, counted from 0 in input order: 3,5,8-12")(
      "max-instructions", po::value<double>(),
      "skip kernels that measured more warp instructions than this")(
      "threads", po::value<unsigned>()->default_value(1), "simulation threads")(
      "quiet,q", po::bool_switch(), "no progress messages");
  po::positional_options_description positional;
  positional.add("input", -1);
  const Usage usage{
      "warpsim replay <report.ncu-rep | ncu-export.csv>... --arch <target> "
      "[--set path=value ...] [--json FILE] [--source FILE.csv] [--no-self-check]\n"
      "                      [--kernel TEXT] [--launch LIST] [--max-instructions N] [--threads N]\n"
      "                      [--quiet]",
      "Replays the kernels of Nsight Compute reports (.ncu-rep, .ncu-repz) and CSV\n"
      "exports (raw page, details page; a source page adds the SASS listing of the\n"
      "kernels before it) on the cycle model: the measurement, a self-check on the\n"
      "measured GPU's preset, the prediction on the target, the speedup and the\n"
      "bottleneck of an analytical bound."};
  const auto vm = parse_args(args, options, positional, usage, io);
  if (!vm) return kExitOk;
  if (!vm->count("input")) throw InputError("missing input file\nusage: " + usage.synopsis);
  if (!vm->count("arch")) throw InputError("missing --arch <target>\nusage: " + usage.synopsis);
  replay::ReplayOptions opt;
  opt.target = vm->at("arch").as<std::string>();
  if (vm->count("set")) opt.target_overrides = vm->at("set").as<std::vector<std::string>>();
  opt.self_check = !vm->at("no-self-check").as<bool>();
  opt.threads = vm->at("threads").as<unsigned>();
  if (opt.threads == 0) throw InputError("--threads: expected a positive number of threads, got 0");
  std::unique_ptr<std::ofstream> json;
  if (vm->count("json")) {
    const std::string path = vm->at("json").as<std::string>();
    json = std::make_unique<std::ofstream>(path);
    if (!*json) throw InputError("--json " + path + ": cannot open for writing");
  }
  std::unique_ptr<std::ofstream> source;
  if (vm->count("source")) {
    const std::string path = vm->at("source").as<std::string>();
    source = std::make_unique<std::ofstream>(path);
    if (!*source) throw InputError("--source " + path + ": cannot open for writing");
    opt.source_profile = true;
  }
  auto profiles = traces::ncu::load_profiles(vm->at("input").as<std::vector<std::string>>());
  if (profiles.empty()) throw InputError("the inputs hold no profiled kernels");
  // Launch numbers (input order) of the kernels kept, for the rows and the JSON.
  std::vector<size_t> launch(profiles.size());
  for (size_t i = 0; i < launch.size(); ++i) launch[i] = i;
  const auto keep_if = [&](const auto& keep) {
    size_t out = 0;
    for (size_t i = 0; i < profiles.size(); ++i) {
      if (!keep(launch[i], profiles[i])) continue;
      if (out != i) {
        profiles[out] = std::move(profiles[i]);
        launch[out] = launch[i];
      }
      ++out;
    }
    profiles.resize(out);
    launch.resize(out);
  };
  if (vm->count("launch")) {
    const std::vector<bool> keep = launch_list(vm->at("launch").as<std::string>(), profiles.size());
    keep_if([&](size_t l, const traces::ncu::KernelProfile&) { return keep[l]; });
  }
  if (vm->count("kernel")) {
    const std::string needle = vm->at("kernel").as<std::string>();
    keep_if([&](size_t, const traces::ncu::KernelProfile& p) {
      return p.name.find(needle) != std::string::npos;
    });
    if (profiles.empty()) throw InputError("--kernel " + needle + ": no kernel name contains it");
  }
  if (vm->count("max-instructions")) {
    const double limit = vm->at("max-instructions").as<double>();
    const size_t before = profiles.size();
    keep_if([&](size_t, const traces::ncu::KernelProfile& p) {
      return p.warp_instructions <= limit;
    });
    io.err << "warpsim replay: " << before - profiles.size() << " of " << before
           << " kernels skipped (more than " << limit << " warp instructions)\n";
  }
  opt.warn = [&](const std::string& w) { io.err << "warpsim replay: warning: " << w << "\n"; };
  if (!vm->at("quiet").as<bool>()) {
    opt.progress = [&](size_t k, const std::string& what) {
      io.err << "warpsim replay: kernel " << k + 1 << "/" << profiles.size() << " "
             << profiles[k].name << " " << what << "\n";
    };
  }
  // One kernel at a time, so that each row appears as soon as it is simulated.
  std::vector<KernelReplay> replays;
  write_header(opt.target, io.out);
  for (size_t k = 0; k < profiles.size(); ++k) {
    auto one = opt;
    if (opt.progress)
      one.progress = [&](size_t, const std::string& what) { opt.progress(k, what); };
    replays.push_back(std::move(replay::replay_profiles({profiles[k]}, one).front()));
    write_row(launch[k], replays.back(), io.out);
  }
  if (source) replay::write_source_comparison(replays, launch, *source);
  if (json) {
    pb::Struct root;
    auto& f = *root.mutable_fields();
    f["warpsim_version"] = text(kVersion);
    f["target_arch"] = text(opt.target);
    pb::Value kernels;
    for (size_t k = 0; k < replays.size(); ++k) {
      pb::Value one = kernel_json(replays[k]);
      (*one.mutable_struct_value()->mutable_fields())["launch"] = number(launch[k]);
      *kernels.mutable_list_value()->add_values() = std::move(one);
    }
    f["kernels"] = kernels;
    pb::util::JsonPrintOptions print;
    print.add_whitespace = true;
    *json << stats::sorted_json(root, print) << '\n';
  }
  return kExitOk;
}

}  // namespace warpsim::cli
