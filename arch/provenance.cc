#include "arch/provenance.h"

namespace warpsim::arch {

namespace {

// True when `path` is `prefix` or lies below it (`prefix.x`, `prefix[k]`).
bool is_at_or_below(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return false;
  if (path.size() == prefix.size()) return true;
  const char next = path[prefix.size()];
  return next == '.' || next == '[';
}

}  // namespace

void Provenance::set(const std::string& path, const std::string& origin) {
  erase(path);
  origins_.emplace(path, origin);
}

void Provenance::erase(const std::string& path) {
  std::erase_if(origins_, [&](const auto& entry) { return is_at_or_below(entry.first, path); });
}

void Provenance::override_with(const Provenance& child) {
  for (const auto& [path, origin] : child.origins_) set(path, origin);
}

std::string Provenance::origin(std::string_view path) const {
  // A field below `path` (e.g. the one --set that created a map entry) stands for it.
  if (const auto below = origins_.lower_bound(path);
      below != origins_.end() && is_at_or_below(below->first, path)) {
    return below->second;
  }
  std::string_view probe = path;
  while (!probe.empty()) {
    if (auto it = origins_.find(probe); it != origins_.end()) return it->second;
    const auto cut = probe.find_last_of(".[");
    if (cut == std::string_view::npos) break;
    probe = probe.substr(0, cut);
  }
  return {};
}

std::string Provenance::where(std::string_view path) const {
  const std::string found = origin(path);
  return found.empty() ? std::string() : " (set at " + found + ")";
}

}  // namespace warpsim::arch
