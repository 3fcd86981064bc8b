#include "sim/engine/huge_page_heap.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <string_view>

namespace warpsim::engine {
namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb";

// True when the kernel gives transparent huge pages to regions that ask (madvise) or to all.
bool transparent_huge_pages_on() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[always]") != std::string::npos ||
         modes.find("[madvise]") != std::string::npos;
}

// True when /proc/self/exe is the dynamic loader itself (the program was started as
// `ld-linux-x86-64.so.2 [--library-path ...] program ...`): re-executing it with the program's
// argv would not start the program.
bool started_by_the_loader() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return true;  // unknown: do not re-execute
  const std::string_view exe(path, static_cast<std::size_t>(n));
  const std::string_view name = exe.substr(exe.rfind('/') + 1);
  return name.starts_with("ld-linux") || name.starts_with("ld.so") || name.starts_with("ld64.so");
}

}  // namespace

std::optional<std::string> huge_heap_tunables(const char* current) {
  const std::string setting = std::string(kTunable) + "=1";
  if (current == nullptr || *current == '\0') return setting;
  if (std::string_view(current).find(kTunable) != std::string_view::npos) return std::nullopt;
  return std::string(current) + ":" + setting;
}

void use_huge_page_heap(char** argv) {
  const char* choice = std::getenv("WARPSIM_HUGE_HEAP");
  if (choice != nullptr && std::string_view(choice) == "0") return;
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload != nullptr && *preload != '\0') return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  const std::string previous = current != nullptr ? current : "";
  const bool had = current != nullptr;
  const std::optional<std::string> tunables = huge_heap_tunables(current);
  if (!tunables || !transparent_huge_pages_on() || started_by_the_loader()) return;
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed: go on as the program was started.
  if (had) {
    setenv("GLIBC_TUNABLES", previous.c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

}  // namespace warpsim::engine
