// Where each field of a resolved architecture description was set: a file and line of a preset or
// description file, or a `--set` argument. Consistency checks quote it so that an error points at
// the line to fix. Paths use the `--set` syntax (`sm.count`,
// `tensor.shapes[wgmma.m64n64k16.f16].n`, `l1.shared_carveout_kb`); submessages are not recorded,
// only scalars, lists and map entries.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace warpsim::arch {

/// Field path -> origin ("arch/nvidia/h200.textproto:12" or "--set 'sm.count=144'").
class Provenance {
 public:
  /// Records that `path` was set at `origin`, replacing what was recorded for it and below it
  /// (a map entry or list set again replaces all of the old one).
  void set(const std::string& path, const std::string& origin);

  /// Forgets what was recorded for `path` and below it.
  void erase(const std::string& path);

  /// Applies a child description's records over this one (inheritance: the child wins).
  void override_with(const Provenance& child);

  /// The origin of `path`, else of a field recorded below it, else of the nearest recorded
  /// enclosing path; empty when unknown.
  std::string origin(std::string_view path) const;

  /// " (set at ORIGIN)" for a known origin, "" otherwise: ready to append to a message.
  std::string where(std::string_view path) const;

  /// Number of recorded paths.
  std::size_t size() const { return origins_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> origins_;
};

}  // namespace warpsim::arch
