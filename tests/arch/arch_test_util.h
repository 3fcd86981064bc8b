// Helpers shared by the arch tests: the source tree, files written to a scratch directory, and the
// line of a preset file that sets a value (so tests can assert exact provenance).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace warpsim::arch::testing {

/// The repository root (WARPSIM_SOURCE_DIR, set by CTest).
inline std::filesystem::path source_dir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir != nullptr ? std::filesystem::path(dir) : std::filesystem::path(".");
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// 1-based number of the first line of arch/`relative` containing `needle` at or after the first
/// line containing `after` (empty: from the top); 0 when absent.
inline int line_of(const std::string& relative, const std::string& needle,
                   const std::string& after = "") {
  std::istringstream in(read_text(source_dir() / "arch" / relative));
  std::string line;
  bool armed = after.empty();
  for (int number = 1; std::getline(in, line); ++number) {
    if (!armed && line.find(after) != std::string::npos) armed = true;
    if (armed && line.find(needle) != std::string::npos) return number;
  }
  return 0;
}

/// "arch/<relative>:<line>" as provenance records it.
inline std::string at(const std::string& relative, const std::string& needle,
                      const std::string& after = "") {
  return "arch/" + relative + ":" + std::to_string(line_of(relative, needle, after));
}

/// A fresh scratch directory per test, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            (std::string("warpsim_arch_") + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// Writes `text` to `name` inside the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace warpsim::arch::testing
