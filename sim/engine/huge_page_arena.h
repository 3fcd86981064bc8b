// Storage on transparent huge pages for long-lived simulation state: the SMs of a GPU and the
// copies they keep of their resident CTAs' traces. Regions of whole 2 MiB pages, advised
// MADV_HUGEPAGE where the system has it, are carved in turn; a request that does not fit opens
// a new region. A hundred SMs' state and traces span thousands of 4 KiB pages, more than a host
// TLB covers, so their ticks would walk page tables (costly under virtualisation); on 2 MiB
// pages they take a few dozen. Where huge pages are unavailable the regions are ordinary memory
// and nothing else changes.
//
// Storage is returned only with the arena, which must outlive what it holds: objects are built
// with make<T>() and destroyed (not freed) by their ArenaPtr. Not thread-safe: allocate while
// building the GPU or in a serial phase of the engine.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace warpsim::engine {

/// Destroys an object made by HugePageArena::make; its storage stays with the arena.
template <class T>
struct ArenaDelete {
  void operator()(T* p) const { p->~T(); }
};

/// An object owned through a HugePageArena.
template <class T>
using ArenaPtr = std::unique_ptr<T, ArenaDelete<T>>;

/// A bump allocator over huge-page regions.
class HugePageArena {
 public:
  /// Regions of at least `region_bytes` (rounded up to whole 2 MiB pages).
  explicit HugePageArena(std::size_t region_bytes);
  ~HugePageArena();
  HugePageArena(const HugePageArena&) = delete;
  HugePageArena& operator=(const HugePageArena&) = delete;

  /// `bytes` (> 0) at a multiple of `align` (a power of two, at most 4096).
  void* allocate(std::size_t bytes, std::size_t align);

  /// Room for `n` objects of type T (trivially copyable data such as trace records).
  template <class T>
  T* allocate_array(std::size_t n) {
    return static_cast<T*>(allocate(n * sizeof(T), alignof(T)));
  }

  /// Constructs a T from `args`.
  template <class T, class... Args>
  ArenaPtr<T> make(Args&&... args) {
    return ArenaPtr<T>(new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...));
  }

  /// Bytes reserved in regions so far.
  std::size_t reserved() const { return reserved_; }

 private:
  struct Region {
    void* mapping = nullptr;  // nullptr: `bytes` from operator new at `start`
    std::size_t bytes = 0;
    char* start = nullptr;
  };
  void open_region(std::size_t bytes);

  std::size_t region_bytes_;
  std::vector<Region> regions_;
  char* next_ = nullptr;  // free space of the newest region: [next_, end_)
  char* end_ = nullptr;
  std::size_t reserved_ = 0;
};

}  // namespace warpsim::engine
