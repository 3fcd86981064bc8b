// Names of statistics. A warpsim stat has a hierarchical dotted name that follows the component
// tree, with instance indices in brackets: `gpu.sm[12].smsp[3].inst_executed`. A name that
// contains "__" is an Nsight Compute metric name (`smsp__inst_executed.sum`) and is flat: its dots
// are part of ncu's suffixes, not levels of a hierarchy. This file parses and checks names, matches
// name patterns (globs) and orders names naturally (sm[2] before sm[10]). It does not know which
// names exist; the registry does.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace warpsim::stats {

/// One level of a hierarchical name: "sm[12]" is key "sm" with index 12, "l1" has no index.
struct NameSegment {
  std::string_view key;
  std::optional<std::uint64_t> index;
};

/// True when `name` is an Nsight Compute metric name, i.e. it contains "__".
bool is_ncu_name(std::string_view name);

/// Splits a hierarchical stat name into its segments. Each segment is an identifier
/// ([A-Za-z_][A-Za-z0-9_]*) optionally followed by one decimal index without leading zeros
/// ("sm[0]", "sm[12]"). Throws warpsim::InternalError naming `name` when it is malformed or
/// contains "__" (reserved for ncu names).
std::vector<NameSegment> parse_stat_name(std::string_view name);

/// Glob match of a whole name: '*' matches any run of characters other than '.', "**" matches any
/// run including '.', every other character matches itself ("gpu.sm[*].smsp[*].inst_executed",
/// "gpu.sm[*].**").
bool matches_pattern(std::string_view pattern, std::string_view name);

/// Natural order: runs of digits compare as numbers, everything else byte by byte, so that
/// "sm[2]" sorts before "sm[10]".
bool natural_less(std::string_view a, std::string_view b);

}  // namespace warpsim::stats
