#include "workloads/sass_listing.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "arch/error.h"

namespace warpsim::workloads {
namespace {

// Opcodes (base) whose first operand is a source: stores, reductions, control flow, barriers.
const std::set<std::string_view, std::less<>> kNoDestination = {
    "ST",     "STG",   "STS",     "STL",   "STSM",  "RED",   "REDG",  "REDS",   "REDUX.SUM",
    "BRA",    "BRX",   "JMP",     "JMX",   "EXIT",  "BAR",   "BSYNC", "BSSY",   "WARPSYNC",
    "NOP",    "MEMBAR", "DEPBAR", "CALL",  "RET",   "YIELD", "ERRBAR", "CCTL",  "FENCE",
    "ARRIVES", "WARPGROUP", "UTMASTG", "UTMALDG", "UTMAPF", "UBLKCP", "KILL", "BPT", "NANOSLEEP",
    "SYNCS", "LDGSTS", "UCGABAR_ARV", "UCGABAR_WAIT", "ACQBULK", "CGAERRBAR", "BMOV"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<uint64_t> parse_hex(std::string_view s) {
  if (s.starts_with("0x")) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Registers named in one operand ("desc[UR4][R2.64]" → UR4, R2; "-R3.reuse" → R3; "c[0x0][0x28]"
// → none). Dependency-barrier names (B0) and special registers (SR_TID.X) are not registers here.
std::vector<traces::Reg> registers_in(std::string_view operand) {
  std::vector<traces::Reg> regs;
  size_t i = 0;
  while (i < operand.size()) {
    const char c = operand[i];
    const bool boundary = i == 0 || (!std::isalnum(static_cast<unsigned char>(operand[i - 1])) &&
                                     operand[i - 1] != '_');
    const bool starts = (c == 'R' || c == 'U' || c == 'P') && boundary;
    if (!starts) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < operand.size() && (std::isalnum(static_cast<unsigned char>(operand[j])))) ++j;
    if (const auto reg = traces::parse_register(operand.substr(i, j - i))) regs.push_back(*reg);
    i = j;
  }
  return regs;
}

bool is_predicate(traces::Reg r) {
  return r.kind() == traces::RegKind::kPredicate ||
         r.kind() == traces::RegKind::kUniformPredicate;
}

std::vector<std::string_view> split_operands(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && (text[i] == '[' || text[i] == '{' || text[i] == '(')) ++depth;
    if (i < text.size() && (text[i] == ']' || text[i] == '}' || text[i] == ')')) --depth;
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      const auto piece = trim(text.substr(start, i - start));
      if (!piece.empty()) out.push_back(piece);
      start = i + 1;
    }
  }
  return out;
}

}  // namespace

std::string_view SassInstruction::base() const {
  const std::string_view m = mnemonic;
  return m.substr(0, m.find('.'));
}

const SassInstruction* SassFunction::at(uint32_t pc) const {
  const auto it = std::lower_bound(instructions.begin(), instructions.end(), pc,
                                   [](const SassInstruction& s, uint32_t p) { return s.pc < p; });
  return it != instructions.end() && it->pc == pc ? &*it : nullptr;
}

size_t SassFunction::index_of(uint32_t pc) const {
  const SassInstruction* inst = at(pc);
  if (inst == nullptr) {
    throw InputError("SASS function " + name + ": no instruction at PC 0x" +
                     std::to_string(pc) + " (decimal)");
  }
  return static_cast<size_t>(inst - instructions.data());
}

const SassFunction& SassListing::function(std::string_view needle) const {
  const SassFunction* found = nullptr;
  for (const SassFunction& f : functions) {
    if (f.name.find(needle) == std::string::npos) continue;
    if (found != nullptr) {
      throw InputError(source + ": several functions match '" + std::string(needle) + "' (" +
                       found->name + ", " + f.name + ")");
    }
    found = &f;
  }
  if (found == nullptr) {
    throw InputError(source + ": no function matches '" + std::string(needle) + "'");
  }
  return *found;
}

SassControl decode_control(uint64_t high_word) {
  const uint64_t bits = high_word >> 41;  // instruction bits 105.. of the 128-bit word
  SassControl c;
  c.stall_cycles = static_cast<uint8_t>(bits & 0xF);
  c.yield = ((bits >> 4) & 1) != 0;
  c.write_barrier = static_cast<uint8_t>((bits >> 5) & 7);
  c.read_barrier = static_cast<uint8_t>((bits >> 8) & 7);
  c.wait_mask = static_cast<uint8_t>((bits >> 11) & 0x3F);
  c.reuse = static_cast<uint8_t>((bits >> 17) & 0xF);
  return c;
}

void parse_operands(SassInstruction& inst) {
  const auto operands = split_operands(inst.operands);
  const std::string_view base = inst.base();
  const bool no_dest = kNoDestination.count(base) > 0 || kNoDestination.count(inst.mnemonic) > 0;
  if (base == "BRA" || base == "BSSY" || base == "CALL" || base == "BRX" || base == "JMP") {
    for (const auto op : operands) {
      if (const auto target = parse_hex(op)) inst.branch_target = static_cast<uint32_t>(*target);
    }
  }
  const size_t max_predicate_dests = base == "VOTE" || base == "VOTEU" ? 1 : 2;
  // SHFL, LOP3 and the global atomics may put a predicate output first: "SHFL.BFLY PT, R7, R0,
  // 0x10, 0x1f" writes R7 (and PT, the lane's validity), "LOP3.LUT P0, R3, R0, 0x8, RZ, 0xc0, !PT"
  // writes R3 (and P0), "ATOMG.E.ADD.STRONG.GPU PT, R24, desc[UR60][R4.64], R7" returns the old
  // value in R24. FCHK P0, R3, R10 writes P0 alone.
  const bool register_after_predicate = base == "SHFL" || base == "LOP3" || base == "ULOP3" ||
                                        base == "ATOMG" || base == "ATOM";
  bool predicate_first = false;
  for (size_t k = 0; k < operands.size(); ++k) {
    const auto regs = registers_in(operands[k]);
    if (!no_dest && k == 0) {
      inst.dsts.insert(inst.dsts.end(), regs.begin(), regs.end());
      predicate_first = regs.size() == 1 && is_predicate(regs[0]);
      continue;
    }
    if (!no_dest && k == 1 && predicate_first && register_after_predicate && regs.size() == 1 &&
        !is_predicate(regs[0])) {
      inst.dsts.push_back(regs[0]);
      continue;
    }
    // Predicate outputs follow the first destination (ISETP P0, PT; IADD3 R4, P0, PT; LEA R2, P0).
    const bool predicate_only = regs.size() == 1 && is_predicate(regs[0]) &&
                                operands[k].find('!') == std::string_view::npos;
    if (!no_dest && predicate_only && k <= max_predicate_dests && inst.srcs.empty()) {
      inst.dsts.push_back(regs[0]);
      continue;
    }
    inst.srcs.insert(inst.srcs.end(), regs.begin(), regs.end());
  }
}

SassListing parse_sass_listing(std::string_view text, const std::string& source) {
  SassListing listing;
  listing.source = source;
  SassFunction* current = nullptr;
  SassInstruction* pending_high = nullptr;  // instruction whose high word comes on the next line
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    const auto where = [&] { return source + ":" + std::to_string(line_no); };
    if (line.starts_with("Function :")) {
      listing.functions.push_back(SassFunction{std::string(trim(line.substr(10))), {}});
      current = &listing.functions.back();
      pending_high = nullptr;
      continue;
    }
    if (pending_high != nullptr && line.starts_with("/* 0x")) {
      const auto close = line.find("*/");
      const auto word = parse_hex(trim(line.substr(3, close == std::string_view::npos
                                                            ? std::string_view::npos
                                                            : close - 3)));
      if (!word) throw InputError(where() + ": expected the instruction's high word /* 0x… */");
      pending_high->control = decode_control(*word);
      pending_high = nullptr;
      continue;
    }
    if (!line.starts_with("/*") || line.size() < 3 ||
        !std::isxdigit(static_cast<unsigned char>(line[2]))) {
      continue;
    }
    if (current == nullptr) throw InputError(where() + ": instruction before any 'Function :'");
    const auto pc_end = line.find("*/");
    const auto pc = pc_end == std::string_view::npos ? std::nullopt
                                                     : parse_hex(line.substr(2, pc_end - 2));
    if (!pc) throw InputError(where() + ": expected a hexadecimal PC in /*xxxx*/");
    std::string_view body = line.substr(pc_end + 2);
    const auto comment = body.find("/*");
    if (comment == std::string_view::npos) {
      throw InputError(where() + ": expected the encoding comment after the instruction");
    }
    body = trim(body.substr(0, comment));
    if (body.ends_with(';')) body.remove_suffix(1);
    body = trim(body);
    SassInstruction inst;
    inst.pc = static_cast<uint32_t>(*pc);
    if (body.starts_with('@')) {
      const auto space = body.find(' ');
      std::string_view g = body.substr(1, space - 1);
      if (g.starts_with('!')) {
        inst.guard_negated = true;
        g.remove_prefix(1);
      }
      const auto reg = traces::parse_register(g);
      if (!reg || !is_predicate(*reg)) throw InputError(where() + ": bad guard predicate '@" +
                                                        std::string(g) + "'");
      inst.guard = *reg;
      body = trim(body.substr(space == std::string_view::npos ? body.size() : space));
    }
    const auto space = body.find(' ');
    inst.mnemonic = std::string(body.substr(0, space));
    if (inst.mnemonic.empty()) throw InputError(where() + ": expected an opcode");
    inst.operands = std::string(space == std::string_view::npos ? "" : trim(body.substr(space)));
    parse_operands(inst);
    current->instructions.push_back(std::move(inst));
    pending_high = &current->instructions.back();
  }
  for (SassFunction& f : listing.functions) {
    while (!f.instructions.empty() && f.instructions.back().mnemonic == "NOP") {
      f.instructions.pop_back();
    }
  }
  return listing;
}

}  // namespace warpsim::workloads
