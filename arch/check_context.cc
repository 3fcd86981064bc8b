#include "arch/check_context.h"

#include <google/protobuf/descriptor.h>

#include "arch/field_text.h"

namespace warpsim::arch {

namespace pb = google::protobuf;

// The singular field a dotted path names and the message holding it; field is null when a
// message on the way is unset (then the field counts as unset) or the path is unknown.
std::pair<const pb::Message*, const pb::FieldDescriptor*> find_field(const pb::Message& root,
                                                                     std::string_view path) {
  const pb::Message* message = &root;
  while (true) {
    const auto dot = path.find('.');
    const pb::FieldDescriptor* field =
        message->GetDescriptor()->FindFieldByName(std::string(path.substr(0, dot)));
    if (field == nullptr) return {message, nullptr};
    if (dot == std::string_view::npos) return {message, field};
    if (!message->GetReflection()->HasField(*message, field)) return {message, nullptr};
    message = &message->GetReflection()->GetMessage(*message, field);
    path = path.substr(dot + 1);
  }
}

void CheckContext::fail(const std::string& what, std::initializer_list<std::string_view> paths) {
  std::string message = what;
  std::string origins;
  for (const std::string_view path : paths) {
    const std::string origin = provenance_.origin(path);
    if (origin.empty()) continue;
    origins += (origins.empty() ? "" : "; ") + std::string(path) + " set at " + origin;
  }
  if (!origins.empty()) message += " (" + origins + ")";
  violations_.push_back(message);
}

std::string CheckContext::show(std::string_view path) const {
  const auto [message, field] = find_field(spec_, path);
  if (field == nullptr || !message->GetReflection()->HasField(*message, field)) {
    return std::string(path) + " (unset)";
  }
  return std::string(path) + " = " + scalar_text(*message, field, -1, true);
}

bool CheckContext::has(std::string_view path) const {
  const auto [message, field] = find_field(spec_, path);
  return field != nullptr && message->GetReflection()->HasField(*message, field);
}

void CheckContext::expect_at_most(std::string_view a, std::uint64_t va, std::string_view b,
                                  std::uint64_t vb, const std::string& how) {
  if (has(a) && has(b) && va > vb) fail(show(a) + " exceeds " + show(b) + how, {a, b});
}

}  // namespace warpsim::arch
