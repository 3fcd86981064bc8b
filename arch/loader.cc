#include "arch/loader.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arch/checks.h"
#include "arch/error.h"
#include "arch/field_text.h"
#include "arch/overrides.h"
#include "arch/presets.h"

namespace warpsim::arch {

namespace {

namespace fs = std::filesystem;
namespace pb = google::protobuf;

constexpr std::string_view kSuffix = ".textproto";

// Keeps the first parse error as "label:line:column: message" (lines and columns from 1).
class FirstError : public pb::io::ErrorCollector {
 public:
  explicit FirstError(const std::string& label) : label_(label) {}
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (!first_.empty()) return;
    first_ = label_;
    if (line >= 0) first_ += ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1);
    first_ += ": " + message;
  }
  const std::string& first() const { return first_; }

 private:
  const std::string& label_;
  std::string first_;
};

// One description to parse: an embedded preset or a file on disk.
struct Document {
  std::string label;  // in messages: "arch/nvidia/h200.textproto" or the path on disk
  std::string key;    // identity, for cycle detection
  std::string text;
  const PresetFile* preset = nullptr;
  fs::path file;
};

Document preset_document(const PresetFile& preset) {
  return Document{
      "arch/" + preset.path, "preset:" + preset.name, std::string(preset.text), &preset, {}};
}

Document file_document(const fs::path& path, const std::string& context) {
  std::ifstream in(path, std::ios::binary);
  if (!in || fs::is_directory(path)) {
    throw InputError(context + "cannot read architecture file '" + path.string() + "'");
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::error_code ignored;
  const fs::path identity = fs::weakly_canonical(path, ignored);
  return Document{path.string(), "file:" + identity.string(), text.str(), nullptr, path};
}

std::string known_names() {
  std::string names;
  for (const auto& name : preset_names()) names += (names.empty() ? "" : ", ") + name;
  std::string aliases;
  for (const auto& [alias, canonical] : preset_aliases()) {
    aliases += (aliases.empty() ? "" : ", ") + alias;
  }
  return "presets: " + names + "; short names and aliases: " + aliases +
         "; or a path to a .textproto file";
}

// The document `inherits` designates, relative to the document that names it.
Document open_base(const Document& child, const std::string& inherits, const std::string& where) {
  const std::string context = where + ": inherits \"" + inherits + "\": ";
  if (std::string_view(inherits).ends_with(kSuffix)) {
    if (child.preset != nullptr) {
      const std::string wanted = (fs::path(child.preset->path).parent_path() / inherits)
                                     .lexically_normal()
                                     .generic_string();
      for (const auto& preset : preset_files()) {
        if (preset.path == wanted) return preset_document(preset);
      }
      throw InputError(context + "no embedded preset file 'arch/" + wanted + "'");
    }
    const fs::path path(inherits);
    return file_document(path.is_absolute() ? path : child.file.parent_path() / path, context);
  }
  const PresetFile* preset = find_preset(inherits);
  if (preset == nullptr) throw InputError(context + "no preset of that name; " + known_names());
  return preset_document(*preset);
}

void record_locations(const pb::Message& message, const pb::TextFormat::ParseInfoTree* tree,
                      const std::string& prefix, const std::string& label, Provenance& provenance) {
  const pb::Reflection* r = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  const auto at = [&](const pb::FieldDescriptor* field, int index) {
    const pb::TextFormat::ParseLocation location =
        tree == nullptr ? pb::TextFormat::ParseLocation() : tree->GetLocation(field, index);
    return location.line < 0 ? label : label + ":" + std::to_string(location.line + 1);
  };
  for (const pb::FieldDescriptor* field : fields) {
    const std::string path = prefix + field->name();
    if (field->is_map()) {
      const pb::FieldDescriptor* value_field = field->message_type()->map_value();
      for (int i = 0; i < r->FieldSize(message, field); ++i) {
        const pb::Message& entry = r->GetRepeatedMessage(message, field, i);
        const std::string entry_path = path + "[" + map_key_text(entry) + "]";
        provenance.set(entry_path, at(field, i));
        if (value_field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
          const pb::TextFormat::ParseInfoTree* entry_tree =
              tree == nullptr ? nullptr : tree->GetTreeForNested(field, i);
          record_locations(
              entry.GetReflection()->GetMessage(entry, value_field),
              entry_tree == nullptr ? nullptr : entry_tree->GetTreeForNested(value_field, -1),
              entry_path + ".", label, provenance);
        }
      }
    } else if (field->is_repeated()) {
      provenance.set(path, at(field, 0));
    } else if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      record_locations(r->GetMessage(message, field),
                       tree == nullptr ? nullptr : tree->GetTreeForNested(field, -1), path + ".",
                       label, provenance);
    } else {
      provenance.set(path, at(field, -1));
    }
  }
}

// Clears in `base` every list that `child` sets, so that merging replaces lists instead of
// appending to them (maps merge by key and need nothing).
void clear_replaced_lists(pb::Message& base, const pb::Message& child) {
  const pb::Reflection* r = child.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(child, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->is_repeated() && !field->is_map()) {
      base.GetReflection()->ClearField(&base, field);
    } else if (!field->is_repeated() && field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE &&
               base.GetReflection()->HasField(base, field)) {
      clear_replaced_lists(*base.GetReflection()->MutableMessage(&base, field),
                           r->GetMessage(child, field));
    }
  }
}

struct Resolved {
  Spec spec;
  Provenance provenance;
};

Resolved resolve(const Document& document, std::deque<Document>& chain) {
  Resolved own;
  own.spec = parse_spec_text(document.text, document.label, &own.provenance);
  if (!own.spec.has_inherits()) return own;
  const std::string where = own.provenance.origin("inherits");
  Document base_document = open_base(document, own.spec.inherits(), where);
  for (const Document& seen : chain) {
    if (seen.key != base_document.key) continue;
    std::string cycle;
    for (const Document& link : chain) cycle += link.label + " -> ";
    throw InputError(where + ": inheritance cycle: " + cycle + base_document.label);
  }
  chain.push_back(std::move(base_document));
  Resolved merged = resolve(chain.back(), chain);
  chain.pop_back();
  merged.spec.clear_abstract();
  merged.provenance.erase("abstract");
  clear_replaced_lists(merged.spec, own.spec);
  merged.spec.MergeFrom(own.spec);
  merged.provenance.override_with(own.provenance);
  return merged;
}

}  // namespace

Spec parse_spec_text(std::string_view text, const std::string& label, Provenance* provenance) {
  Spec spec;
  FirstError errors(label);
  pb::TextFormat::ParseInfoTree tree;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&tree);
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  if (!parser.Parse(&input, &spec)) {
    throw InputError(errors.first().empty() ? label + ": cannot parse" : errors.first());
  }
  if (provenance != nullptr) record_locations(spec, &tree, "", label, *provenance);
  return spec;
}

LoadedSpec resolve_spec(std::string_view arch) {
  std::deque<Document> chain;  // a deque: resolve() holds references into it while it grows
  std::string source;
  if (const PresetFile* preset = find_preset(arch)) {
    if (preset->abstract) {
      throw InputError("architecture '" + std::string(arch) + "' is an abstract base (arch/" +
                       preset->path + "), not a GPU; " + known_names());
    }
    chain.push_back(preset_document(*preset));
    source = preset->name;
  } else if (arch.ends_with(kSuffix)) {
    chain.push_back(file_document(fs::path(arch), ""));
    source = std::string(arch);
  } else {
    throw InputError("unknown architecture '" + std::string(arch) + "'; " + known_names());
  }
  Resolved resolved = resolve(chain.front(), chain);
  if (resolved.spec.abstract()) {
    throw InputError(resolved.provenance.origin("abstract") + ": '" + std::string(arch) +
                     "' is abstract (a base for other descriptions) and cannot be loaded");
  }
  return LoadedSpec{std::move(resolved.spec), std::move(source), std::move(resolved.provenance)};
}

LoadedSpec load_spec(std::string_view arch, const std::vector<std::string>& overrides) {
  LoadedSpec loaded = resolve_spec(arch);
  apply_overrides(loaded.spec, overrides, &loaded.provenance);
  check_spec(loaded.spec, loaded.provenance, loaded.source);
  return loaded;
}

}  // namespace warpsim::arch
