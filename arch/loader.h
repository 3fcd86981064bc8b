// Loads an architecture description: resolves a preset name, alias or .textproto path, merges its
// `inherits` chain (base first, the child overrides; lists and map entries the child sets replace
// the base's), applies `--set` overrides and runs the consistency checks. Every error is an
// InputError naming the file and line (parse errors also the column) or the --set argument.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arch/arch.pb.h"
#include "arch/provenance.h"

namespace warpsim::arch {

/// A resolved description and where each of its fields was set.
struct LoadedSpec {
  Spec spec;
  std::string source;  ///< canonical preset name ("nvidia/h200") or the path as given
  Provenance provenance;
};

/// Loads `arch` (preset name, short name, alias or path to a .textproto file), merges inheritance,
/// applies `overrides` ("path=value", see overrides.h) in order and checks consistency.
LoadedSpec load_spec(std::string_view arch, const std::vector<std::string>& overrides = {});

/// Loads `arch` and merges its inheritance only: no overrides, no checks.
LoadedSpec resolve_spec(std::string_view arch);

/// Parses one description's text without following `inherits`. Errors name `label`:line:column.
/// When `provenance` is given, records `label`:line for every field set.
Spec parse_spec_text(std::string_view text, const std::string& label,
                     Provenance* provenance = nullptr);

}  // namespace warpsim::arch
