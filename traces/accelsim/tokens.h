// A cursor over the whitespace-separated tokens of one line of an Accel-Sim trace, with number
// and register parsers that throw InputError naming the file, the line number and what was
// expected ("kernel-1.traceg:42: expected a hex active mask, got 'zz'"). No allocation unless an
// error is thrown.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "traces/registers.h"

namespace warpsim::traces::accelsim {

/// Tokens of one line.
class Tokens {
 public:
  /// `file` and `line_number` only name the place in messages.
  Tokens(std::string_view line, const std::string& file, uint64_t line_number);

  /// True when no token is left.
  bool done();
  /// The next token without consuming it (empty when done).
  std::string_view peek();
  /// The next token; throws when done.
  std::string_view next(std::string_view expected);
  /// Unsigned decimal.
  uint64_t next_decimal(std::string_view expected);
  /// Signed decimal.
  int64_t next_signed(std::string_view expected);
  /// Hexadecimal, with or without "0x".
  uint64_t next_hex(std::string_view expected);
  /// A register name (R12, RZ, UR4, P0, UP1, …).
  Reg next_register(std::string_view expected);
  /// Throws unless every token was consumed.
  void expect_end();

  /// Throws InputError "<file>:<line>: expected <expected>, got '<token>'".
  [[noreturn]] void fail(std::string_view expected, std::string_view got) const;

 private:
  void skip_space();

  std::string_view line_;
  size_t pos_ = 0;
  const std::string& file_;
  uint64_t line_number_;
};

/// Parses all of `text` as an unsigned number in `base` (10 or 16); false when it is not one.
bool parse_unsigned(std::string_view text, int base, uint64_t& value);

}  // namespace warpsim::traces::accelsim
