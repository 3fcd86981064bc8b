// The warpsim version string reported by --version and in every JSON output.
#pragma once

namespace warpsim::cli {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace warpsim::cli
