#include "traces/accelsim/tokens.h"

#include <charconv>

#include "arch/error.h"

namespace warpsim::traces::accelsim {

bool parse_unsigned(std::string_view text, int base, uint64_t& value) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && end == text.data() + text.size();
}

Tokens::Tokens(std::string_view line, const std::string& file, uint64_t line_number)
    : line_(line), file_(file), line_number_(line_number) {}

void Tokens::skip_space() {
  while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t' ||
                                 line_[pos_] == '\r')) {
    ++pos_;
  }
}

bool Tokens::done() {
  skip_space();
  return pos_ >= line_.size();
}

std::string_view Tokens::peek() {
  skip_space();
  size_t end = pos_;
  while (end < line_.size() && line_[end] != ' ' && line_[end] != '\t' && line_[end] != '\r') {
    ++end;
  }
  return line_.substr(pos_, end - pos_);
}

std::string_view Tokens::next(std::string_view expected) {
  const std::string_view token = peek();
  if (token.empty()) fail(expected, "end of line");
  pos_ += token.size();
  return token;
}

uint64_t Tokens::next_decimal(std::string_view expected) {
  const std::string_view token = next(expected);
  uint64_t value = 0;
  if (!parse_unsigned(token, 10, value)) fail(expected, token);
  return value;
}

int64_t Tokens::next_signed(std::string_view expected) {
  const std::string_view token = next(expected);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size()) fail(expected, token);
  return value;
}

uint64_t Tokens::next_hex(std::string_view expected) {
  const std::string_view token = next(expected);
  std::string_view digits = token;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  uint64_t value = 0;
  if (!parse_unsigned(digits, 16, value)) fail(expected, token);
  return value;
}

Reg Tokens::next_register(std::string_view expected) {
  const std::string_view token = next(expected);
  const std::optional<Reg> reg = parse_register(token);
  if (!reg) fail(expected, token);
  return *reg;
}

void Tokens::expect_end() {
  if (!done()) fail("end of line", peek());
}

void Tokens::fail(std::string_view expected, std::string_view got) const {
  std::string shown(got.substr(0, 64));
  throw InputError(file_ + ":" + std::to_string(line_number_) + ": expected " +
                   std::string(expected) + ", got '" + shown + "'");
}

}  // namespace warpsim::traces::accelsim
