#include "validate/saved_runs.h"

#include <charconv>
#include <cstdio>
#include <string_view>
#include <vector>

#include "arch/error.h"
#include "validate/reference.h"

namespace warpsim::validate {
namespace {

constexpr std::string_view kHeader = "point\tpad_mb\tmetric\tvalue";
constexpr std::string_view kFailure = "failure";

// A failure message on one row: tabs and line breaks become spaces.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace

void write_saved_runs_header(std::ostream& out) { out << kHeader << '\n'; }

void write_saved_run(std::ostream& out, const std::string& point, std::optional<int64_t> pad_mb,
                     const SavedRun& run) {
  const std::string pad = pad_mb ? std::to_string(*pad_mb) : "-";
  if (!run.failure.empty()) {
    out << point << '\t' << pad << '\t' << kFailure << '\t' << one_line(run.failure) << '\n';
    return;
  }
  char value[32];
  for (const auto& [metric, v] : run.simulated) {
    std::snprintf(value, sizeof value, "%.17g", v);
    out << point << '\t' << pad << '\t' << metric << '\t' << value << '\n';
  }
}

void read_saved_runs(std::istream& in, const std::string& where, SavedRuns& runs) {
  std::string line;
  std::size_t number = 0;
  const auto error = [&](const std::string& what) {
    return InputError(where + ":" + std::to_string(number) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      if (line != kHeader) {
        throw error("expected the header \"point<TAB>pad_mb<TAB>metric<TAB>value\" of a file "
                    "written by warpsim validate --save-runs");
      }
      continue;
    }
    if (line.empty()) continue;
    const std::vector<std::string> f = split(line, '\t');
    if (f.size() != 4 || f[0].empty() || f[2].empty()) {
      throw error("expected 4 tab-separated fields (point, pad_mb, metric, value), got " +
                  std::to_string(f.size()));
    }
    std::optional<int64_t> pad;
    if (f[1] != "-") {
      int64_t v = 0;
      const auto [end, ec] = std::from_chars(f[1].data(), f[1].data() + f[1].size(), v);
      if (ec != std::errc() || end != f[1].data() + f[1].size() || v < 0) {
        throw error("pad_mb \"" + f[1] + "\": expected '-' or MiB >= 0");
      }
      pad = v;
    }
    SavedRun& run = runs[{f[0], pad}];
    if (f[2] == kFailure) {
      run.failure = f[3];
      continue;
    }
    double v = 0;
    const auto [end, ec] = std::from_chars(f[3].data(), f[3].data() + f[3].size(), v);
    if (ec != std::errc() || end != f[3].data() + f[3].size()) {
      throw error("value \"" + f[3] + "\" of " + f[2] +
                  ": expected a number");
    }
    run.simulated[f[2]] = v;
  }
  if (number == 0) throw error("empty file; expected the header of warpsim validate --save-runs");
}

}  // namespace warpsim::validate
