#include "arch/field_text.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace warpsim::arch {

namespace pb = google::protobuf;

namespace {

std::string unquote(std::string text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    return text.substr(1, text.size() - 2);
  }
  return text;
}

enum class Parsed { kOk, kMalformed, kOutOfRange };

template <typename T>
Parsed parse_integer(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    if constexpr (std::is_unsigned_v<T>) {
      // A well-formed negative number is out of range for an unsigned field.
      std::int64_t as_signed = 0;
      const auto [signed_ptr, signed_ec] = std::from_chars(text.data(), end, as_signed);
      if (signed_ptr == end && signed_ptr != text.data() &&
          (signed_ec == std::errc() || signed_ec == std::errc::result_out_of_range)) {
        return Parsed::kOutOfRange;
      }
    }
    return Parsed::kMalformed;
  }
  return ec == std::errc() ? Parsed::kOk : Parsed::kOutOfRange;
}

// Parses an integer of type T; on failure returns why ("" on success).
template <typename T>
std::string integer_error(const std::string& text, T& value, const pb::FieldDescriptor* field) {
  switch (parse_integer(text, value)) {
    case Parsed::kOk:
      return {};
    case Parsed::kOutOfRange:
      return "value " + text + " is out of range for " + field_type_name(field) + " (" +
             std::to_string(std::numeric_limits<T>::min()) + " to " +
             std::to_string(std::numeric_limits<T>::max()) + ")";
    case Parsed::kMalformed:
      break;
  }
  return "expects " + field_type_name(field) + ", got '" + text + "'";
}

std::optional<double> parse_double(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Stores `value` through the reflection setter that matches `target`.
template <typename T, typename Set, typename Add, typename SetRepeated>
void store(pb::Message& message, const pb::FieldDescriptor* field, FieldTarget target, T value,
           Set set, Add add, SetRepeated set_repeated) {
  const pb::Reflection* r = message.GetReflection();
  switch (target.kind) {
    case FieldTarget::kSingular:
      (r->*set)(&message, field, value);
      return;
    case FieldTarget::kAppend:
      (r->*add)(&message, field, value);
      return;
    case FieldTarget::kElement:
      (r->*set_repeated)(&message, field, target.index, value);
      return;
  }
}

}  // namespace

std::string field_type_name(const pb::FieldDescriptor* field) {
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return "a 32-bit integer";
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return "a 64-bit integer";
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return "a non-negative 32-bit integer";
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return "a non-negative 64-bit integer";
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      return "a finite number";
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return "true or false";
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return "a string";
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      std::string names;
      const pb::EnumDescriptor* type = field->enum_type();
      for (int i = 0; i < type->value_count(); ++i) {
        names += (i > 0 ? ", " : "") + type->value(i)->name();
      }
      return "one of " + names;
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      return "a message";
  }
  return "a value";
}

std::string scalar_text(const pb::Message& message, const pb::FieldDescriptor* field, int index,
                        bool quote_strings) {
  const pb::Reflection* reflection = message.GetReflection();
  if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING) {
    std::string value = index < 0 ? reflection->GetString(message, field)
                                  : reflection->GetRepeatedString(message, field, index);
    return quote_strings ? "\"" + value + "\"" : value;
  }
  std::string text;
  pb::TextFormat::PrintFieldValueToString(message, field, index, &text);
  return text;
}

std::string map_key_text(const pb::Message& entry) {
  return scalar_text(entry, entry.GetDescriptor()->map_key());
}

std::string set_field_from_text(pb::Message& message, const pb::FieldDescriptor* field,
                                const std::string& text, FieldTarget target) {
  using R = pb::Reflection;
  const std::string expected = "expects " + field_type_name(field) + ", got '" + text + "'";
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32: {
      std::int32_t v = 0;
      std::string error = integer_error(text, v, field);
      if (error.empty()) {
        store(message, field, target, v, &R::SetInt32, &R::AddInt32, &R::SetRepeatedInt32);
      }
      return error;
    }
    case pb::FieldDescriptor::CPPTYPE_INT64: {
      std::int64_t v = 0;
      std::string error = integer_error(text, v, field);
      if (error.empty()) {
        store(message, field, target, v, &R::SetInt64, &R::AddInt64, &R::SetRepeatedInt64);
      }
      return error;
    }
    case pb::FieldDescriptor::CPPTYPE_UINT32: {
      std::uint32_t v = 0;
      std::string error = integer_error(text, v, field);
      if (error.empty()) {
        store(message, field, target, v, &R::SetUInt32, &R::AddUInt32, &R::SetRepeatedUInt32);
      }
      return error;
    }
    case pb::FieldDescriptor::CPPTYPE_UINT64: {
      std::uint64_t v = 0;
      std::string error = integer_error(text, v, field);
      if (error.empty()) {
        store(message, field, target, v, &R::SetUInt64, &R::AddUInt64, &R::SetRepeatedUInt64);
      }
      return error;
    }
    case pb::FieldDescriptor::CPPTYPE_DOUBLE: {
      const auto v = parse_double(text);
      if (!v) return expected;
      store(message, field, target, *v, &R::SetDouble, &R::AddDouble, &R::SetRepeatedDouble);
      return {};
    }
    case pb::FieldDescriptor::CPPTYPE_FLOAT: {
      const auto v = parse_double(text);
      if (!v || std::abs(*v) > std::numeric_limits<float>::max()) return expected;
      store(message, field, target, static_cast<float>(*v), &R::SetFloat, &R::AddFloat,
            &R::SetRepeatedFloat);
      return {};
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL: {
      if (text != "true" && text != "false" && text != "1" && text != "0") return expected;
      store(message, field, target, text == "true" || text == "1", &R::SetBool, &R::AddBool,
            &R::SetRepeatedBool);
      return {};
    }
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const pb::EnumValueDescriptor* v = field->enum_type()->FindValueByName(text);
      if (v == nullptr) return expected;
      store(message, field, target, v, &R::SetEnum, &R::AddEnum, &R::SetRepeatedEnum);
      return {};
    }
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      store(message, field, target, unquote(text), &R::SetString, &R::AddString,
            &R::SetRepeatedString);
      return {};
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  return expected;
}

}  // namespace warpsim::arch
