// Text forms of protobuf field values, both ways: printing (provenance paths, map keys, `warpsim
// arch diff`) and parsing with type and range checks (`--set`). Reflection-based; not for hot
// paths.
#pragma once

#include <google/protobuf/message.h>

#include <string>

namespace warpsim::arch {

/// The value of a scalar field as text: numbers as protobuf's text format prints them, enums by
/// name, bools as true/false, strings as-is (or double-quoted when `quote_strings`). `index`
/// selects an element of a repeated field; -1 reads a singular field.
std::string scalar_text(const google::protobuf::Message& message,
                        const google::protobuf::FieldDescriptor* field, int index = -1,
                        bool quote_strings = false);

/// The key of a map entry message as text (unquoted), e.g. "fp8".
std::string map_key_text(const google::protobuf::Message& entry);

/// Where set_field_from_text stores: the singular field, a new last element, or element `index`.
struct FieldTarget {
  enum Kind { kSingular, kAppend, kElement } kind = kSingular;
  int index = 0;
};

/// What values a field takes, for messages: "a non-negative 32-bit integer", "a finite number",
/// "true or false", "one of COLD, WARM", "a string", "a message".
std::string field_type_name(const google::protobuf::FieldDescriptor* field);

/// Parses `text` as a value of `field`'s type (integers range-checked, doubles finite, enums by
/// name, bools true/false/1/0, strings optionally quoted) and stores it at `target`. Returns why
/// the text does not fit, e.g. "expects a finite number, got 'fast'" or "value -1 is out of range
/// for ...", or "" when stored.
std::string set_field_from_text(google::protobuf::Message& message,
                                const google::protobuf::FieldDescriptor* field,
                                const std::string& text, FieldTarget target = {});

}  // namespace warpsim::arch
