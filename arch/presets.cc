#include "arch/presets.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "arch/arch.pb.h"

namespace warpsim {
extern const EmbeddedFile kArchPresets[];
}  // namespace warpsim

namespace warpsim::arch {

namespace {

constexpr std::string_view kSuffix = ".textproto";

// Names that are neither canonical nor a file's short name.
constexpr std::pair<std::string_view, std::string_view> kExtraAliases[] = {
    {"h100", "nvidia/h100_sxm"},
    {"h100_sxm5", "nvidia/h100_sxm"},
    {"h200_sxm", "nvidia/h200"},
    {"a100_sxm", "nvidia/a100"},
};

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Whether a preset is an abstract base. The flag is read from the file's own text, without
// inheritance, as the loader does; a file that does not parse counts as not abstract (loading it
// reports the error).
class SilentErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
};

bool is_abstract(std::string_view text) {
  Spec spec;
  SilentErrors errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  google::protobuf::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  return parser.Parse(&input, &spec) && spec.abstract();
}

std::string short_name(std::string_view canonical) {
  const auto slash = canonical.rfind('/');
  return std::string(slash == std::string_view::npos ? canonical : canonical.substr(slash + 1));
}

// short name or alias -> canonical name; only non-abstract presets get short names.
const std::map<std::string, std::string>& alias_table() {
  static const std::map<std::string, std::string> table = [] {
    std::map<std::string, std::string> result;
    std::map<std::string, int> uses;
    for (const auto& preset : preset_files()) {
      if (!preset.abstract) ++uses[short_name(preset.name)];
    }
    for (const auto& preset : preset_files()) {
      const std::string brief = short_name(preset.name);
      if (!preset.abstract && uses[brief] == 1) result.emplace(brief, preset.name);
    }
    for (const auto& [alias, canonical] : kExtraAliases) {
      result.emplace(std::string(alias), std::string(canonical));
    }
    return result;
  }();
  return table;
}

}  // namespace

const std::vector<PresetFile>& preset_files() {
  static const std::vector<PresetFile> files = [] {
    std::vector<PresetFile> result;
    for (const EmbeddedFile* file = kArchPresets; file->path != nullptr; ++file) {
      std::string_view path(file->path);
      if (!path.ends_with(kSuffix)) continue;
      const std::string_view text(file->data, file->size);
      result.push_back(PresetFile{std::string(path.substr(0, path.size() - kSuffix.size())),
                                  std::string(path), text, is_abstract(text)});
    }
    std::sort(result.begin(), result.end(),
              [](const PresetFile& a, const PresetFile& b) { return a.name < b.name; });
    return result;
  }();
  return files;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& preset : preset_files()) {
    if (!preset.abstract) names.push_back(preset.name);
  }
  return names;
}

std::vector<std::pair<std::string, std::string>> preset_aliases() {
  const auto& table = alias_table();
  return {table.begin(), table.end()};
}

const PresetFile* find_preset(std::string_view name) {
  std::string wanted = lowercase(name);
  if (const auto it = alias_table().find(wanted); it != alias_table().end()) wanted = it->second;
  const auto& files = preset_files();
  const auto it = std::find_if(files.begin(), files.end(),
                               [&](const PresetFile& preset) { return preset.name == wanted; });
  return it == files.end() ? nullptr : &*it;
}

}  // namespace warpsim::arch
