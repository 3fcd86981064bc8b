// The architecture presets compiled into the binary (arch/nvidia/*.textproto, arch/amd/*.textproto)
// and the names a user may give for them: the canonical name ("nvidia/h200"), the file's short name
// ("h200") and a few aliases ("h100" for "nvidia/h100_sxm"). Names are case-insensitive.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/embedded_file.h"

namespace warpsim::arch {

/// One embedded preset file.
struct PresetFile {
  std::string name;       ///< canonical name: path under arch/ without ".textproto"
  std::string path;       ///< path under arch/, e.g. "nvidia/h200.textproto"
  std::string_view text;  ///< the file's contents
  bool abstract = false;  ///< a base for other presets (`abstract: true`): not listed or loadable
};

/// Every embedded preset file, abstract bases included, sorted by name.
const std::vector<PresetFile>& preset_files();

/// Canonical names of the presets a user can simulate (abstract bases excluded), sorted.
std::vector<std::string> preset_names();

/// Short names and aliases with the canonical name each resolves to, sorted by short name.
std::vector<std::pair<std::string, std::string>> preset_aliases();

/// The embedded file a name, short name or alias designates (case-insensitive), or nullptr.
const PresetFile* find_preset(std::string_view name);

}  // namespace warpsim::arch
