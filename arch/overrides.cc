#include "arch/overrides.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cctype>
#include <charconv>
#include <memory>
#include <optional>

#include "arch/error.h"
#include "arch/field_text.h"

namespace warpsim::arch {

namespace {

namespace pb = google::protobuf;

// One step of a path: a field name and an optional [key] (map key or list index).
struct Segment {
  std::string name;
  std::optional<std::string> key;
};

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

std::string unquote(std::string text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    return text.substr(1, text.size() - 2);
  }
  return text;
}

// Builds the error for the whole --set argument.
[[noreturn]] void fail(std::string_view expression, const std::string& what) {
  throw InputError("--set '" + std::string(expression) + "': " + what);
}

std::vector<Segment> parse_path(std::string_view path, std::string_view expression) {
  std::vector<Segment> segments;
  std::size_t pos = 0;
  while (true) {
    Segment segment;
    const std::size_t start = pos;
    while (pos < path.size() &&
           (std::isalnum(static_cast<unsigned char>(path[pos])) != 0 || path[pos] == '_')) {
      ++pos;
    }
    if (pos == start) {
      fail(expression, "malformed path '" + std::string(path) + "': expected a field name at " +
                           "position " + std::to_string(pos + 1));
    }
    segment.name = std::string(path.substr(start, pos - start));
    if (pos < path.size() && path[pos] == '[') {
      const std::size_t close = path.find(']', pos);
      if (close == std::string_view::npos) {
        fail(expression, "malformed path '" + std::string(path) + "': '[' without ']'");
      }
      segment.key = unquote(trim(path.substr(pos + 1, close - pos - 1)));
      if (segment.key->empty()) {
        fail(expression,
             "malformed path '" + std::string(path) + "': empty [] after '" + segment.name + "'");
      }
      pos = close + 1;
    }
    segments.push_back(std::move(segment));
    if (pos == path.size()) return segments;
    if (path[pos] != '.') {
      fail(expression, "malformed path '" + std::string(path) + "': unexpected '" +
                           std::string(1, path[pos]) + "' at position " + std::to_string(pos + 1));
    }
    ++pos;
  }
}

std::string known_fields(const pb::Descriptor* descriptor) {
  std::string list;
  for (int i = 0; i < descriptor->field_count(); ++i) {
    if (i > 0) list += ", ";
    list += descriptor->field(i)->name();
  }
  return list;
}

// Context of one --set while it walks its path.
struct Walk {
  std::string_view expression;
  std::string path;  // the part of the path resolved so far

  [[noreturn]] void bad_value(const std::string& why) const { fail(expression, path + " " + why); }
};

void set_scalar(pb::Message& message, const pb::FieldDescriptor* field, const std::string& text,
                const Walk& walk) {
  const std::string error = set_field_from_text(message, field, text, FieldTarget{});
  if (!error.empty()) walk.bad_value(error);
}

// Replaces a repeated scalar field with the comma-separated list `text` ("[a, b]" or "a,b").
void set_list(pb::Message& message, const pb::FieldDescriptor* field, std::string text,
              const Walk& walk) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  message.GetReflection()->ClearField(&message, field);
  if (trim(text).empty()) return;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = trim(std::string_view(text).substr(start, comma - start));
    const std::string error =
        set_field_from_text(message, field, item, FieldTarget{FieldTarget::kAppend, 0});
    if (!error.empty()) walk.bad_value("element: " + error);
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

// The entry of map `field` with key `key`, added when absent. The last duplicate wins, as in the
// map view protobuf syncs from the entries.
pb::Message* map_entry(pb::Message& message, const pb::FieldDescriptor* field,
                       const std::string& key, const Walk& walk) {
  const pb::Reflection* r = message.GetReflection();
  const pb::Message* prototype = r->GetMessageFactory()->GetPrototype(field->message_type());
  std::unique_ptr<pb::Message> probe(prototype->New());
  const pb::FieldDescriptor* key_field = field->message_type()->map_key();
  if (!set_field_from_text(*probe, key_field, key, FieldTarget{}).empty()) {
    fail(walk.expression,
         walk.path + " is a map keyed by " + field_type_name(key_field) + ", got [" + key + "]");
  }
  const std::string wanted = map_key_text(*probe);
  for (int i = r->FieldSize(message, field) - 1; i >= 0; --i) {
    if (map_key_text(r->GetRepeatedMessage(message, field, i)) == wanted) {
      return r->MutableRepeatedMessage(&message, field, i);
    }
  }
  pb::Message* entry = r->AddMessage(&message, field);
  entry->CopyFrom(*probe);
  return entry;
}

int list_index(const pb::Message& message, const pb::FieldDescriptor* field, const std::string& key,
               const Walk& walk) {
  const int size = message.GetReflection()->FieldSize(message, field);
  int index = -1;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
  if (error != std::errc() || end != key.data() + key.size() || index < 0 || index >= size) {
    fail(walk.expression, walk.path + " is a list of " + std::to_string(size) +
                              " elements; expected an index from 0 to " + std::to_string(size - 1) +
                              ", got [" + key + "]");
  }
  return index;
}

}  // namespace

void apply_override(Spec& spec, std::string_view expression, Provenance* provenance) {
  std::size_t equals = std::string_view::npos;
  for (std::size_t i = 0, depth = 0; i < expression.size() && equals == std::string_view::npos;
       ++i) {
    if (expression[i] == '[') ++depth;
    if (expression[i] == ']' && depth > 0) --depth;
    if (expression[i] == '=' && depth == 0) equals = i;
  }
  if (equals == std::string_view::npos) fail(expression, "expected path=value");
  const std::string path_text = trim(expression.substr(0, equals));
  const std::string value = trim(expression.substr(equals + 1));
  if (path_text.empty()) fail(expression, "expected path=value, the path is empty");
  const std::vector<Segment> segments = parse_path(path_text, expression);

  Walk walk{expression, ""};
  pb::Message* message = &spec;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment& segment = segments[i];
    const bool last = i + 1 == segments.size();
    const pb::Descriptor* descriptor = message->GetDescriptor();
    const pb::FieldDescriptor* field = descriptor->FindFieldByName(segment.name);
    if (field == nullptr) {
      fail(expression, "unknown field '" + segment.name + "' in " +
                           (walk.path.empty() ? std::string("the description") : walk.path) + " (" +
                           descriptor->full_name() +
                           "); known fields: " + known_fields(descriptor));
    }
    walk.path += (walk.path.empty() ? "" : ".") + segment.name;
    const pb::Reflection* r = message->GetReflection();
    const std::string next = last ? std::string() : segments[i + 1].name;

    if (field->is_map()) {
      if (!segment.key) {
        fail(expression, walk.path + " is a map; name an entry as " + walk.path + "[<key>]");
      }
      pb::Message* entry = map_entry(*message, field, *segment.key, walk);
      walk.path += "[" + *segment.key + "]";
      const pb::FieldDescriptor* value_field = field->message_type()->map_value();
      if (value_field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        message = entry->GetReflection()->MutableMessage(entry, value_field);
        if (last) {
          fail(expression, walk.path + " is a message; set one of its fields: " +
                               known_fields(value_field->message_type()));
        }
        continue;
      }
      if (!last)
        fail(expression, walk.path + " is " + field_type_name(value_field) + ", not a message");
      set_scalar(*entry, value_field, value, walk);
      break;
    }
    if (field->is_repeated()) {
      const bool of_messages = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
      if (segment.key) {
        const int index = list_index(*message, field, *segment.key, walk);
        if (of_messages) {
          walk.path += "[" + *segment.key + "]";
          message = r->MutableRepeatedMessage(message, field, index);
          if (last) fail(expression, walk.path + " is a message; set one of its fields");
          continue;
        }
        if (!last) fail(expression, walk.path + " is a list of values, not of messages");
        const std::string error =
            set_field_from_text(*message, field, value, FieldTarget{FieldTarget::kElement, index});
        if (!error.empty()) walk.bad_value(error);
        break;
      }
      if (of_messages) fail(expression, walk.path + " is a list of messages; name an element");
      if (!last) fail(expression, walk.path + " is a list of values, not a message");
      set_list(*message, field, value, walk);
      break;
    }
    if (segment.key) {
      fail(expression, walk.path + " is not a map or a list; remove [" + *segment.key + "]");
    }
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (last) {
        fail(expression, walk.path + " is a message; set one of its fields: " +
                             known_fields(field->message_type()));
      }
      message = r->MutableMessage(message, field);
      continue;
    }
    if (!last) {
      fail(expression,
           walk.path + " is " + field_type_name(field) + ", it has no field '" + next + "'");
    }
    set_scalar(*message, field, value, walk);
  }
  if (provenance != nullptr) {
    provenance->set(walk.path, "--set '" + std::string(expression) + "'");
  }
}

void apply_overrides(Spec& spec, const std::vector<std::string>& expressions,
                     Provenance* provenance) {
  for (const auto& expression : expressions) apply_override(spec, expression, provenance);
}

}  // namespace warpsim::arch
