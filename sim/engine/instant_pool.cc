#include "sim/engine/instant_pool.h"

#include <algorithm>
#include <utility>

namespace warpsim::engine {
namespace {

// A waiting thread polls with a pause this many times (some tens of microseconds), then yields
// its core between polls this many times, then sleeps; with more threads than cores it only yields.
constexpr int kSpins = 1 << 10;
constexpr int kYields = 64;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

InstantPool::InstantPool(unsigned threads)
    : spins_(threads <= std::max(1u, std::thread::hardware_concurrency()) ? kSpins : 0) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

InstantPool::~InstantPool() {
  stop_.store(true, std::memory_order_relaxed);
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void InstantPool::work(unsigned thread) {
  try {
    fn_(body_, thread);
  } catch (...) {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
  }
}

void InstantPool::worker_loop(unsigned thread) {
  std::uint64_t seen = 0;
  while (true) {
    std::uint64_t epoch = epoch_.load(std::memory_order_acquire);
    for (int i = 0; epoch == seen && i < spins_; ++i) {
      cpu_relax();
      epoch = epoch_.load(std::memory_order_acquire);
    }
    for (int i = 0; epoch == seen && i < kYields; ++i) {
      std::this_thread::yield();
      epoch = epoch_.load(std::memory_order_acquire);
    }
    while (epoch == seen) {
      epoch_.wait(seen, std::memory_order_acquire);
      epoch = epoch_.load(std::memory_order_acquire);
    }
    seen = epoch;
    if (stop_.load(std::memory_order_relaxed)) return;
    work(thread);
    finished_.fetch_add(1, std::memory_order_release);
  }
}

void InstantPool::run_erased(void* body, Fn fn) {
  body_ = body;
  fn_ = fn;
  finished_.store(0, std::memory_order_relaxed);
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_all();
  work(0);
  const auto workers = static_cast<unsigned>(workers_.size());
  for (int i = 0; finished_.load(std::memory_order_acquire) != workers; ++i) {
    if (i < spins_) {
      cpu_relax();
    } else {
      std::this_thread::yield();  // a worker may be waiting for this core
    }
  }
  if (error_) {
    std::exception_ptr e;
    std::swap(e, error_);
    std::rethrow_exception(e);
  }
}

}  // namespace warpsim::engine
