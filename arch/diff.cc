#include "arch/diff.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/message_differencer.h>

#include <set>

#include "arch/field_text.h"

namespace warpsim::arch {

namespace {

namespace pb = google::protobuf;
using Differencer = pb::util::MessageDifferencer;
using SpecificField = Differencer::SpecificField;

constexpr const char* kUnset = "(unset)";

bool is_map_value(const pb::FieldDescriptor* field) {
  return field->containing_type() != nullptr && field->containing_type()->map_value() == field;
}

// Collects differences as rows; lists are reported once, whole.
class RowReporter : public Differencer::Reporter {
 public:
  // Where a reported field is present: only in a (deleted), only in b (added), or in both.
  enum class Side { kA, kB, kBoth };

  explicit RowReporter(std::vector<FieldDifference>& rows) : rows_(rows) {}

  void ReportAdded(const pb::Message& a, const pb::Message& b,
                   const std::vector<SpecificField>& path) override {
    report(a, b, path, Side::kB);
  }
  void ReportDeleted(const pb::Message& a, const pb::Message& b,
                     const std::vector<SpecificField>& path) override {
    report(a, b, path, Side::kA);
  }
  void ReportModified(const pb::Message& a, const pb::Message& b,
                      const std::vector<SpecificField>& path) override {
    report(a, b, path, Side::kBoth);
  }

 private:
  static std::string path_text(const std::vector<SpecificField>& path) {
    std::string text;
    for (const SpecificField& step : path) {
      if (is_map_value(step.field)) continue;
      if (!text.empty()) text += ".";
      text += step.field->name();
      if (step.field->is_map()) {
        const pb::Message* entry = step.map_entry1 != nullptr ? step.map_entry1 : step.map_entry2;
        if (entry != nullptr) text += "[" + map_key_text(*entry) + "]";
      } else if (step.field->is_repeated() &&
                 step.field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        text += "[" + std::to_string(step.index >= 0 ? step.index : step.new_index) + "]";
      }
    }
    return text;
  }

  // The text of `field` in `holder`: a scalar, a whole list, or "(unset)".
  static std::string value_text(const pb::Message* holder, const pb::FieldDescriptor* field) {
    if (holder == nullptr) return kUnset;
    const pb::Reflection* r = holder->GetReflection();
    if (field->is_repeated()) {
      std::string list = "[";
      for (int i = 0; i < r->FieldSize(*holder, field); ++i) {
        list += (i > 0 ? ", " : "") + scalar_text(*holder, field, i, true);
      }
      return list + "]";
    }
    if (!r->HasField(*holder, field)) return kUnset;
    return scalar_text(*holder, field, -1, true);
  }

  // Adds one row per leaf below a submessage present on one side only.
  void expand(const pb::Message& message, const std::string& prefix, bool side_a) {
    const pb::Reflection* r = message.GetReflection();
    std::vector<const pb::FieldDescriptor*> fields;
    r->ListFields(message, &fields);
    for (const pb::FieldDescriptor* field : fields) {
      const std::string path = prefix + field->name();
      if (field->is_map()) {
        const pb::FieldDescriptor* value_field = field->message_type()->map_value();
        for (int i = 0; i < r->FieldSize(message, field); ++i) {
          const pb::Message& entry = r->GetRepeatedMessage(message, field, i);
          const std::string entry_path = path + "[" + map_key_text(entry) + "]";
          if (value_field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
            expand(entry.GetReflection()->GetMessage(entry, value_field), entry_path + ".", side_a);
          } else {
            add(entry_path, value_text(&entry, value_field), side_a);
          }
        }
      } else if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE &&
                 !field->is_repeated()) {
        expand(r->GetMessage(message, field), path + ".", side_a);
      } else {
        add(path, value_text(&message, field), side_a);
      }
    }
  }

  void add(const std::string& path, const std::string& value, bool side_a) {
    if (!seen_.insert(path).second) return;
    rows_.push_back(side_a ? FieldDifference{path, value, kUnset}
                           : FieldDifference{path, kUnset, value});
  }

  void report(const pb::Message& a, const pb::Message& b, const std::vector<SpecificField>& path,
              Side side) {
    const pb::FieldDescriptor* field = path.back().field;
    if (field == nullptr) return;  // unknown fields: none in a parsed Spec
    // The differencer reports from inside its recursion: a and b hold the last field of path.
    if (field->is_map()) {
      report_map_entry(a, b, path, side);
      return;
    }
    const std::string text = path_text(path);
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      // Reported after its fields when both sides have it; expand it when one side lacks it.
      if (side == Side::kBoth) return;
      const pb::Message& holder = side == Side::kA ? a : b;
      expand(holder.GetReflection()->GetMessage(holder, field), text + ".", side == Side::kA);
      return;
    }
    if (!seen_.insert(text).second) return;
    rows_.push_back(FieldDifference{text, value_text(&a, field), value_text(&b, field)});
  }

  // A map entry on one side only gets rows of its own; a modified one was reported field by field.
  void report_map_entry(const pb::Message& a, const pb::Message& b,
                        const std::vector<SpecificField>& path, Side side) {
    if (side == Side::kBoth) return;
    const SpecificField& step = path.back();
    const bool side_a = side == Side::kA;
    const pb::Message& holder = side_a ? a : b;
    const int index = side_a ? step.index : step.new_index;
    const pb::Message* entry = side_a ? step.map_entry1 : step.map_entry2;
    if (entry == nullptr && index >= 0 &&
        index < holder.GetReflection()->FieldSize(holder, step.field)) {
      entry = &holder.GetReflection()->GetRepeatedMessage(holder, step.field, index);
    }
    if (entry == nullptr) return;
    const std::vector<SpecificField> parent(path.begin(), path.end() - 1);
    const std::string prefix = path_text(parent);
    const std::string entry_path = (prefix.empty() ? "" : prefix + ".") + step.field->name() + "[" +
                                   map_key_text(*entry) + "]";
    const pb::FieldDescriptor* value_field = step.field->message_type()->map_value();
    if (value_field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      expand(entry->GetReflection()->GetMessage(*entry, value_field), entry_path + ".", side_a);
    } else {
      add(entry_path, value_text(entry, value_field), side_a);
    }
  }

  std::vector<FieldDifference>& rows_;
  std::set<std::string> seen_;
};

}  // namespace

std::vector<FieldDifference> diff_specs(const Spec& a, const Spec& b) {
  std::vector<FieldDifference> rows;
  RowReporter reporter(rows);
  Differencer differencer;
  differencer.ReportDifferencesTo(&reporter);
  differencer.Compare(a, b);
  return rows;
}

}  // namespace warpsim::arch
