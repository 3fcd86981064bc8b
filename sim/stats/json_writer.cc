#include "sim/stats/json_writer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/type_resolver.h>
#include <google/protobuf/util/type_resolver_util.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/stats/report.pb.h"
#include "sim/stats/stat_name.h"

namespace warpsim::stats {
namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

constexpr std::uint64_t kMaxInstanceIndex = 1u << 24;
constexpr char kTypeUrlPrefix[] = "type.googleapis.com";

void set_number(Value& out, const StatValue& value) {
  if (is_undefined(value)) {
    out.set_null_value(google::protobuf::NULL_VALUE);
  } else {
    out.set_number_value(to_double(value));
  }
}

[[noreturn]] void clash(const std::string& name) {
  throw InternalError("stat '" + name + "' cannot be nested in the JSON stats: another stat uses " +
                      "one of its levels differently (value, group or list)");
}

bool is_empty_slot(const Value& v) {
  return v.kind_case() == Value::KIND_NOT_SET || v.kind_case() == Value::kNullValue;
}

Struct& as_group(Value& v, const std::string& name) {
  if (!is_empty_slot(v) && v.kind_case() != Value::kStructValue) clash(name);
  return *v.mutable_struct_value();
}

Value& list_slot(Value& v, std::uint64_t index, const std::string& name) {
  if (!is_empty_slot(v) && v.kind_case() != Value::kListValue) clash(name);
  if (index > kMaxInstanceIndex) {
    throw InternalError("stat '" + name + "': instance index too large for the JSON stats");
  }
  ListValue& list = *v.mutable_list_value();
  while (static_cast<std::uint64_t>(list.values_size()) <= index) {
    list.add_values()->set_null_value(google::protobuf::NULL_VALUE);
  }
  return *list.mutable_values(static_cast<int>(index));
}

// Places `sample` in the nested stats object: "a.b[2].c" -> stats.a.b[2].c.
void nest(Struct& root, const Sample& sample) {
  std::vector<NameSegment> segments = parse_stat_name(sample.name);
  Struct* group = &root;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    Value* slot = &(*group->mutable_fields())[std::string(segments[i].key)];
    if (segments[i].index) slot = &list_slot(*slot, *segments[i].index, sample.name);
    if (i + 1 == segments.size()) {
      if (!is_empty_slot(*slot)) clash(sample.name);
      set_number(*slot, sample.value);
    } else {
      group = &as_group(*slot, sample.name);
    }
  }
}

KernelJson kernel_json(const KernelReport& kernel, const JsonOptions& options) {
  KernelJson out;
  out.set_name(kernel.name);
  for (std::uint32_t d : kernel.grid) out.add_grid(d);
  for (std::uint32_t d : kernel.block) out.add_block(d);
  Struct& metrics = *out.mutable_metrics();
  for (const Sample& sample : kernel.snapshot.metrics) {
    set_number((*metrics.mutable_fields())[sample.name], sample.value);
  }
  Struct& stats = *out.mutable_stats();
  for (const Sample& sample : kernel.snapshot.stats) nest(stats, sample);
  if (options.include_units) {
    Struct& units = *out.mutable_units();
    for (const auto* list : {&kernel.snapshot.metrics, &kernel.snapshot.stats}) {
      for (const Sample& sample : *list) {
        (*units.mutable_fields())[sample.name].set_string_value(sample.unit);
      }
    }
  }
  return out;
}

ReportJson report_json(const RunReport& report, const JsonOptions& options) {
  ReportJson out;
  out.set_warpsim_version(report.warpsim_version);
  out.mutable_arch()->set_name(report.arch_name);
  *out.mutable_arch()->mutable_config() = report.arch_config;
  for (const KernelReport& kernel : report.kernels) {
    *out.add_kernels() = kernel_json(kernel, options);
  }
  SimulationJson& sim = *out.mutable_simulation();
  sim.set_wall_seconds(report.simulation.wall_seconds);
  sim.set_warp_instructions(static_cast<double>(report.simulation.warp_instructions));
  sim.set_warp_instructions_per_second(report.simulation.warp_instructions_per_second());
  sim.set_threads(report.simulation.threads);
  return out;
}

google::protobuf::util::TypeResolver& type_resolver() {
  static const std::unique_ptr<google::protobuf::util::TypeResolver> resolver(
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          kTypeUrlPrefix, google::protobuf::DescriptorPool::generated_pool()));
  return *resolver;
}

}  // namespace

std::string sorted_json(const google::protobuf::Message& message,
                        const google::protobuf::util::JsonPrintOptions& print) {
  // Deterministic serialization sorts map entries (Struct fields included); printing from those
  // bytes keeps that order, where MessageToJsonString follows the maps' per-process hash order.
  std::string binary;
  {
    google::protobuf::io::StringOutputStream stream(&binary);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!message.SerializeToCodedStream(&coded)) {
      throw InternalError("cannot serialize " + message.GetTypeName() + " for JSON");
    }
  }
  std::string json;
  const std::string type_url =
      std::string(kTypeUrlPrefix) + "/" + message.GetDescriptor()->full_name();
  auto status =
      google::protobuf::util::BinaryToJsonString(&type_resolver(), type_url, binary, &json, print);
  if (!status.ok()) {
    throw InternalError("cannot print " + message.GetTypeName() + " as JSON: " + status.ToString());
  }
  while (!json.empty() && json.back() == '\n') json.pop_back();
  return json;
}

std::string to_json(const RunReport& report, const JsonOptions& options) {
  google::protobuf::util::JsonPrintOptions print;
  print.add_whitespace = options.pretty;
  print.always_print_primitive_fields = true;
  print.preserve_proto_field_names = true;
  return sorted_json(report_json(report, options), print);
}

void write_json(const RunReport& report, std::ostream& out, const JsonOptions& options) {
  out << to_json(report, options) << '\n';
}

}  // namespace warpsim::stats
