// The threads that run the evaluate phase of one instant in parallel.
//
// An instant of a GPU simulation lasts tens of microseconds (a hundred SM ticks), and instants
// follow each other without pause, so the hand-off between them must cost far less than that:
// run(body) calls body(t) once on each of the pool's threads t = 0 .. threads-1 (0 is the calling
// thread), and between instants a worker spins on an epoch counter for a while before it sleeps
// on it (std::atomic wait/notify). The caller decides which work thread t does; the engine gives
// each component an owning thread, so that its state stays in that core's caches from one
// instant to the next (a component's working set moving between cores every instant costs more
// than its tick); a thread done with its own components ticks the others' rest.
//
// The results must not depend on the threads (each thread touches only its own components'
// state). The first exception thrown by a call is rethrown by run() after every thread stopped.
//
// Left out: nested parallelism and work from several callers at once (one engine owns one pool).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace warpsim::engine {

/// A fixed set of threads running index ranges, for the engine's evaluate phase.
class InstantPool {
 public:
  /// A pool of `threads` threads in all (the caller of run() included); threads >= 2.
  explicit InstantPool(unsigned threads);
  ~InstantPool();
  InstantPool(const InstantPool&) = delete;
  InstantPool& operator=(const InstantPool&) = delete;

  /// Threads in all.
  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  /// Calls body(t) on every thread t of the pool and returns when all calls finished. Rethrows
  /// the first exception a call threw.
  template <class Body>
  void run(Body& body) {
    run_erased(&body, [](void* b, unsigned t) { (*static_cast<Body*>(b))(t); });
  }

 private:
  using Fn = void (*)(void*, unsigned);

  void run_erased(void* body, Fn fn);
  void work(unsigned thread);
  void worker_loop(unsigned thread);

  int spins_;  // polls with a pause before yielding (0 when threads outnumber cores)
  std::vector<std::thread> workers_;
  // The current instant's job, written by run() before the epoch is published.
  void* body_ = nullptr;
  Fn fn_ = nullptr;
  alignas(64) std::atomic<std::uint64_t> epoch_{0};
  alignas(64) std::atomic<unsigned> finished_{0};
  std::atomic<bool> stop_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace warpsim::engine
