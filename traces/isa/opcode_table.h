// Opcode interning: each distinct full mnemonic of a trace is classified once (through the SASS
// table or the CDNA3 rules, by the source ISA) and given a dense 16-bit id; warp instructions
// carry only that id. The table is append-only, so ids and OpcodeInfo references stay valid for
// its lifetime. It also answers the cross-architecture question: which opcodes of a trace does a
// target ISA lack (for the warning printed when a trace recorded on one GPU replays on another).
//
// Thread safety: interning mutates the table; reading info() concurrently is safe only while no
// thread interns. Trace sources intern only inside KernelSource::next_kernel / next_cta.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "traces/isa/isa.h"
#include "traces/isa/opcode_info.h"

namespace warpsim::traces {

/// Dense id of an interned mnemonic.
using OpcodeId = uint16_t;

/// Classifies a mnemonic of `isa` without interning it (SASS table or CDNA3 rules).
OpcodeInfo classify_opcode(Isa isa, std::string_view mnemonic);

/// The interned mnemonics of one trace (or of any set of kernels of one source ISA).
class OpcodeTable {
 public:
  /// Most distinct mnemonics one table holds.
  static constexpr size_t kMaxOpcodes = 65536;

  /// A table for mnemonics written in `isa`.
  explicit OpcodeTable(Isa isa);

  /// The ISA the mnemonics are written in.
  Isa isa() const { return isa_; }

  /// The id of `mnemonic`, classifying and adding it on first sight. Throws InputError for an
  /// empty mnemonic or when the table already holds kMaxOpcodes mnemonics.
  OpcodeId intern(std::string_view mnemonic);

  /// The id of `mnemonic` if it has been interned.
  std::optional<OpcodeId> find(std::string_view mnemonic) const;

  /// What the table knows about `id`. Throws InternalError for an id it never returned.
  const OpcodeInfo& info(OpcodeId id) const {
    if (id >= infos_.size()) throw_bad_id(id);
    return infos_[id];
  }

  /// Number of interned mnemonics.
  size_t size() const { return infos_.size(); }

  /// Sorted, distinct base opcodes that the table knows but `target` lacks.
  std::vector<std::string> missing_on(Isa target) const;

  /// The warning to print before replaying on `target`, e.g. "trace opcodes for sm_90 that sm_80
  /// lacks (timed by their op class): HGMMA, UTMALDG"; empty when the target has them all.
  std::string missing_opcode_warning(Isa target) const;

  /// Sorted full mnemonics that have no entry in the ISA table (class OP_CLASS_UNKNOWN).
  std::vector<std::string> unknown_mnemonics() const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  [[noreturn]] static void throw_bad_id(OpcodeId id);

  Isa isa_;
  std::deque<OpcodeInfo> infos_;
  std::unordered_map<std::string, OpcodeId, Hash, std::equal_to<>> ids_;
};

}  // namespace warpsim::traces
