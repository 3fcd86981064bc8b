// Paths of the recorded Nsight Compute fixtures (../shared/fixtures/ncu and the H200 reference)
// and a file reader, for the ncu reader tests.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace warpsim::traces::ncu::testing {

inline std::string source_dir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir ? dir : ".";
}

/// ../shared/fixtures/ncu/ relative to the repository.
inline std::string fixtures() { return source_dir() + "/../shared/fixtures/ncu/"; }

/// validate/reference/h200/ in the repository.
inline std::string h200_reference() { return source_dir() + "/validate/reference/h200/"; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace warpsim::traces::ncu::testing
