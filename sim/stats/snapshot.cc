#include "sim/stats/snapshot.h"

#include <charconv>
#include <cmath>

namespace warpsim::stats {

double to_double(const StatValue& value) {
  if (const auto* integer = std::get_if<std::uint64_t>(&value)) {
    return static_cast<double>(*integer);
  }
  return std::get<double>(value);
}

bool is_undefined(const StatValue& value) {
  const auto* real = std::get_if<double>(&value);
  return real != nullptr && !std::isfinite(*real);
}

std::string to_exact_string(const StatValue& value) {
  if (is_undefined(value)) return "n/a";
  char buffer[64];
  std::to_chars_result result =
      std::holds_alternative<std::uint64_t>(value)
          ? std::to_chars(buffer, buffer + sizeof buffer, std::get<std::uint64_t>(value))
          : std::to_chars(buffer, buffer + sizeof buffer, std::get<double>(value));
  return std::string(buffer, result.ptr);
}

const Sample* Snapshot::find(std::string_view name) const {
  for (const auto* list : {&metrics, &stats}) {
    for (const Sample& sample : *list) {
      if (sample.name == name) return &sample;
    }
  }
  return nullptr;
}

}  // namespace warpsim::stats
