#include "sim/stats/report.h"

#include <google/protobuf/util/json_util.h>

#include <string>

#include "arch/error.h"

namespace warpsim::stats {

double SimulationInfo::warp_instructions_per_second() const {
  if (!(wall_seconds > 0)) return 0;
  return static_cast<double>(warp_instructions) / wall_seconds;
}

void RunReport::set_arch_config(const google::protobuf::Message& config) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string json;
  auto status = google::protobuf::util::MessageToJsonString(config, &json, options);
  if (!status.ok()) {
    throw InternalError("cannot convert " + config.GetTypeName() +
                        " to JSON: " + status.ToString());
  }
  set_arch_config_json(json, config.GetTypeName());
}

void RunReport::set_arch_config_json(std::string_view json, std::string_view source) {
  google::protobuf::Struct parsed;
  auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &parsed);
  if (!status.ok()) {
    throw InputError(std::string(source) +
                     ": the architecture configuration is not a JSON object: " + status.ToString());
  }
  arch_config = std::move(parsed);
}

}  // namespace warpsim::stats
