#include "traces/isa/opcode_table.h"

#include <algorithm>
#include <set>

#include "arch/error.h"
#include "traces/isa/cdna_table.h"
#include "traces/isa/sass_table.h"

namespace warpsim::traces {

OpcodeInfo classify_opcode(Isa isa, std::string_view mnemonic) {
  return is_nvidia(isa) ? classify_sass(mnemonic) : classify_cdna(mnemonic);
}

OpcodeTable::OpcodeTable(Isa isa) : isa_(isa) {}

OpcodeId OpcodeTable::intern(std::string_view mnemonic) {
  if (const auto it = ids_.find(mnemonic); it != ids_.end()) return it->second;
  if (mnemonic.empty()) throw InputError("opcode table: empty opcode mnemonic");
  if (infos_.size() >= kMaxOpcodes) {
    throw InputError("opcode table: more than 65536 distinct opcode mnemonics (at '" +
                     std::string(mnemonic) + "')");
  }
  const auto id = static_cast<OpcodeId>(infos_.size());
  infos_.push_back(classify_opcode(isa_, mnemonic));
  ids_.emplace(std::string(mnemonic), id);
  return id;
}

std::optional<OpcodeId> OpcodeTable::find(std::string_view mnemonic) const {
  if (const auto it = ids_.find(mnemonic); it != ids_.end()) return it->second;
  return std::nullopt;
}

void OpcodeTable::throw_bad_id(OpcodeId id) {
  throw InternalError("opcode table: no opcode with id " + std::to_string(id));
}

std::vector<std::string> OpcodeTable::missing_on(Isa target) const {
  std::set<std::string> missing;
  for (const OpcodeInfo& info : infos_) {
    if (info.known && !info.available_on(target)) missing.insert(info.base);
  }
  return {missing.begin(), missing.end()};
}

std::string OpcodeTable::missing_opcode_warning(Isa target) const {
  const std::vector<std::string> missing = missing_on(target);
  if (missing.empty()) return "";
  std::string text = "trace opcodes for " + std::string(isa_name(isa_)) + " that " +
                     std::string(isa_name(target)) + " lacks (timed by their op class): ";
  for (size_t i = 0; i < missing.size(); ++i) {
    if (i > 0) text += ", ";
    text += missing[i];
  }
  return text;
}

std::vector<std::string> OpcodeTable::unknown_mnemonics() const {
  std::vector<std::string> unknown;
  for (const OpcodeInfo& info : infos_) {
    if (!info.known) unknown.push_back(info.mnemonic);
  }
  std::sort(unknown.begin(), unknown.end());
  return unknown;
}

}  // namespace warpsim::traces
