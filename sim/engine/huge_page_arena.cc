#include "sim/engine/huge_page_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

namespace warpsim::engine {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t whole_pages(std::size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

}  // namespace

HugePageArena::HugePageArena(std::size_t region_bytes)
    : region_bytes_(whole_pages(std::max<std::size_t>(region_bytes, 1))) {}

HugePageArena::~HugePageArena() {
  for (const Region& r : regions_) {
    if (r.mapping != nullptr) {
      munmap(r.mapping, r.bytes);
    } else {
      ::operator delete(r.start, std::align_val_t{kHugePage});
    }
  }
}

void HugePageArena::open_region(std::size_t bytes) {
  const std::size_t size = std::max(region_bytes_, whole_pages(bytes));
  Region r;
  // Slack of one huge page to align the start.
  void* mapping =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping != MAP_FAILED) {
    r.mapping = mapping;
    r.bytes = size + kHugePage;
    const auto at = reinterpret_cast<std::uintptr_t>(mapping);
    r.start = reinterpret_cast<char*>((at + kHugePage - 1) / kHugePage * kHugePage);
#ifdef MADV_HUGEPAGE
    madvise(r.start, size, MADV_HUGEPAGE);  // advice only: ordinary pages if refused
#endif
  } else {
    r.start = static_cast<char*>(::operator new(size, std::align_val_t{kHugePage}));
  }
  regions_.push_back(r);
  next_ = r.start;
  end_ = r.start + size;
  reserved_ += size;
}

void* HugePageArena::allocate(std::size_t bytes, std::size_t align) {
  auto aligned = [align](char* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<char*>((at + align - 1) / align * align);
  };
  if (next_ == nullptr || aligned(next_) + bytes > end_) open_region(bytes);
  char* p = aligned(next_);
  next_ = p + bytes;
  return p;
}

}  // namespace warpsim::engine
