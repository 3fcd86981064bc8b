#include "traces/isa/sass_table.h"

#include <string>
#include <unordered_map>

#include "traces/isa/sass_opcodes.h"

namespace warpsim::traces {
namespace {

using MS = MemSpace;
using AK = AccessKind;

/// Modifier sequences that change an entry's memory direction.
struct DirectionOverride {
  std::string_view base;
  std::string_view modifiers;  // a run of dot-tokens, e.g. ".G.S"
  MemSpace space;
  AccessKind access;
};
constexpr DirectionOverride kDirectionOverrides[] = {
    {"UBLKCP", ".G.S", MS::kSharedToGlobal, AK::kStore},
};

// clang-format off
/// Width modifiers (a whole dot-token) and the bytes per lane they mean; the first one wins.
constexpr std::pair<std::string_view, uint16_t> kWidthTokens[] = {
    {"8", 1},  {"U8", 1},   {"S8", 1},   {"16", 2},  {"U16", 2}, {"S16", 2},  {"32", 4},
    {"U32", 4}, {"S32", 4}, {"F32", 4},  {"64", 8},  {"U64", 8}, {"S64", 8},  {"F64", 8},
    {"128", 16}, {"256", 32},
};
// clang-format on

constexpr uint16_t kDefaultWidth = 4;

const std::unordered_map<std::string_view, const SassEntry*>& sass_index() {
  static const auto* const index = [] {
    auto* map = new std::unordered_map<std::string_view, const SassEntry*>();
    for (const SassEntry& entry : sass_entries()) map->emplace(entry.base, &entry);
    return map;
  }();
  return *index;
}

/// Calls `fn` for each dot-token after the base opcode.
template <typename Fn>
void for_each_modifier(std::string_view rest, Fn&& fn) {
  while (!rest.empty()) {
    rest.remove_prefix(1);  // the '.'
    const size_t end = rest.find('.');
    fn(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end);
  }
}

/// True when `rest` contains `sequence` (".A.B") aligned on whole dot-tokens.
bool has_modifier_sequence(std::string_view rest, std::string_view sequence) {
  for (size_t pos = rest.find(sequence); pos != std::string_view::npos;
       pos = rest.find(sequence, pos + 1)) {
    const size_t after = pos + sequence.size();
    if (after == rest.size() || rest[after] == '.') return true;
  }
  return false;
}

uint16_t width_from_modifiers(std::string_view rest) {
  uint16_t width = 0;
  for_each_modifier(rest, [&](std::string_view token) {
    if (width != 0) return;
    for (const auto& [name, bytes] : kWidthTokens) {
      if (token == name) {
        width = bytes;
        return;
      }
    }
  });
  return width == 0 ? kDefaultWidth : width;
}

uint16_t width_from_repeat(std::string_view rest) {
  uint16_t width = kDefaultWidth;
  for_each_modifier(rest, [&](std::string_view token) {
    if (token.size() < 2 || (token[0] != 'x' && token[0] != 'X')) return;
    uint32_t count = 0;
    for (char c : token.substr(1)) {
      if (c < '0' || c > '9' || count > 1024) return;
      count = count * 10 + static_cast<uint32_t>(c - '0');
    }
    if (count > 0 && count <= 1024) width = static_cast<uint16_t>(4 * count);
  });
  return width;
}

// LDSM / STSM move 8x8 matrices of 16-bit elements, one 16-byte row per lane of the first 8 x n
// lanes: n from the modifier after M88 / MT88 (LDSM.16.MT88.2), 1 when there is none.
uint8_t matrix_address_lanes(std::string_view rest) {
  bool after_shape = false;
  uint8_t lanes = 32;
  for_each_modifier(rest, [&](std::string_view token) {
    if (token == "M88" || token == "MT88") {
      after_shape = true;
      lanes = 8;
    } else if (after_shape) {
      if (token == "2") lanes = 16;
      if (token == "4") lanes = 32;
      after_shape = false;
    }
  });
  return lanes;
}

}  // namespace

OpcodeInfo classify_sass(std::string_view mnemonic) {
  OpcodeInfo info;
  info.mnemonic = std::string(mnemonic);
  const size_t dot = mnemonic.find('.');
  const std::string_view base = mnemonic.substr(0, dot);
  const std::string_view rest =
      dot == std::string_view::npos ? std::string_view() : mnemonic.substr(dot);
  info.base = std::string(base);
  const auto& index = sass_index();
  const auto it = index.find(base);
  if (it == index.end()) return info;
  const SassEntry& entry = *it->second;
  info.known = true;
  info.op_class = entry.op_class;
  info.space = entry.space;
  info.access = entry.access;
  info.flags = entry.flags;
  info.isas = entry.isas;
  for (const DirectionOverride& o : kDirectionOverrides) {
    if (o.base == base && has_modifier_sequence(rest, o.modifiers)) {
      info.space = o.space;
      info.access = o.access;
    }
  }
  if (info.space != MemSpace::kNone) {
    if (entry.width == kWidthFromModifiers) {
      info.width_bytes = width_from_modifiers(rest);
    } else if (entry.width == kWidthRepeat) {
      info.width_bytes = width_from_repeat(rest);
    } else {
      info.width_bytes = entry.width;
    }
    if (base == "LDSM" || base == "STSM") info.address_lanes = matrix_address_lanes(rest);
  }
  return info;
}

std::vector<std::string_view> sass_base_opcodes(Isa isa) {
  std::vector<std::string_view> out;
  for (const SassEntry& entry : sass_entries()) {
    if (entry.isas & isa_bit(isa)) out.push_back(entry.base);
  }
  return out;
}

}  // namespace warpsim::traces
