#include "sim/cli/calibrate.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <iomanip>
#include <ostream>
#include <sstream>

#include "arch/error.h"
#include "arch/loader.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "validate/calibration.h"
#include "sim/cli/point_params.h"
#include "workloads/workload.h"

namespace warpsim::cli {
namespace {

namespace pb = google::protobuf;

// The integer at `path` ("a.b.c") of the description.
long long integer_at(const pb::Message& root, const std::string& path) {
  const pb::Message* message = &root;
  std::stringstream parts(path);
  std::string part;
  std::vector<std::string> names;
  while (std::getline(parts, part, '.')) names.push_back(part);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const pb::FieldDescriptor* field = message->GetDescriptor()->FindFieldByName(names[i]);
    if (field == nullptr || field->is_repeated()) {
      throw InputError("calibration: '" + path + "' is not a field of the description");
    }
    const pb::Reflection* r = message->GetReflection();
    if (i + 1 < names.size()) {
      if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        throw InputError("calibration: '" + path + "': " + names[i] + " is not a message");
      }
      message = &r->GetMessage(*message, field);
      continue;
    }
    switch (field->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_UINT32: return r->GetUInt32(*message, field);
      case pb::FieldDescriptor::CPPTYPE_INT32: return r->GetInt32(*message, field);
      case pb::FieldDescriptor::CPPTYPE_UINT64: return static_cast<long long>(r->GetUInt64(*message, field));
      case pb::FieldDescriptor::CPPTYPE_INT64: return r->GetInt64(*message, field);
      default: throw InputError("calibration: '" + path + "' is not an integer field");
    }
  }
  throw InputError("calibration: empty parameter path");
}

}  // namespace

void run_calibration(const validate::Reference& reference, const std::string& reference_dir,
                     const std::string& arch, const std::vector<std::string>& sets,
                     unsigned threads, const std::string& only, CommandIo& io) {
  const arch::LoadedSpec base = arch::load_spec(arch, sets);
  const auto simulate = [&](const validate::ReferencePoint& point,
                            const std::vector<std::string>& extra) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), extra.begin(), extra.end());
    const gpu::GpuConfig config = gpu::gpu_config_from_spec(arch::load_spec(arch, all).spec);
    const workloads::Workload& model = workloads::find_workload(point.kernel);
    auto source = model.make_source(
        workloads::Params::parse(model.params(), model_params(model, point.params), point.kernel));
    gpu::SimulationOptions options;
    options.threads = threads;
    const auto reports = gpu::simulate(config, *source, options);
    if (reports.empty()) throw InternalError("calibration: no kernel simulated");
    for (const auto& sample : reports.front().snapshot.metrics) {
      if (sample.name == "gpc__cycles_elapsed.max") return stats::to_double(sample.value);
    }
    throw InternalError("calibration: gpc__cycles_elapsed.max not reported");
  };
  std::vector<validate::CalibrationTarget> targets;
  for (const auto& t : validate::nvidia_calibration_targets()) {
    bool match = only.empty();
    std::stringstream words(only);
    for (std::string word; std::getline(words, word, ',');) {
      match = match || (!word.empty() && t.parameter.find(word) != std::string::npos);
    }
    if (match) targets.push_back(t);
  }
  if (targets.empty()) throw InputError("--only " + only + ": no calibration parameter matches");
  const auto fitted = validate::fit_parameters(
      reference, targets,
      [&](const std::string& path) { return integer_at(base.spec, path); }, simulate);

  io.out << std::left << std::setw(40) << "parameter" << std::right << std::setw(8) << "before"
         << std::setw(8) << "after" << std::setw(14) << "error before" << std::setw(13)
         << "error after" << "\n";
  for (const auto& f : fitted) {
    io.out << std::left << std::setw(40) << f.target.parameter << std::right << std::setw(8)
           << f.before << std::setw(8) << f.after << std::fixed << std::setprecision(1)
           << std::setw(13) << f.error_before_pct << "%" << std::setw(12) << f.error_after_pct
           << "%\n";
  }
  io.out << "\n# Description lines (" << arch << "):\n";
  for (const auto& f : fitted) {
    std::string points;
    for (const auto& p : f.target.points) points += (points.empty() ? "" : ", ") + p;
    const std::string source = "# source: [meas: fit] " + reference_dir + " (" + points +
                               "): " + f.target.why + "; warpsim validate --calibrate";
    io.out << f.target.parameter << ": " << f.after << "  " << source << "\n";
    for (std::size_t t = 0; t < f.target.tied.size(); ++t) {
      io.out << f.target.tied[t] << ": " << f.tied_before[t] + (f.after - f.before)
             << "  # source: [meas: fit] moved with " << f.target.parameter << "\n";
    }
  }
}

}  // namespace warpsim::cli
