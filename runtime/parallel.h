// parallel_for: split an index range over the CPU threads of one process-wide pool.
//
//   sops::parallel_for(0, n, sops::kGrainSize, [&](int64_t begin, int64_t end) {
//     for (int64_t i = begin; i < end; ++i) out[i] = f(in[i]);
//   });
//
// The range is cut into at most get_num_threads() chunks of at least `grain_size`
// indices; the calling thread runs one of them and waits for the others. A range no
// longer than `grain_size`, a pool of one thread, or a call from inside a chunk
// (nested parallelism) runs `f(begin, end)` on the calling thread with no other cost.
// The first exception thrown by a chunk is rethrown to the caller after every chunk
// has finished.
//
// Threads: set_num_threads(n), else the environment variable SOPS_NUM_THREADS (a positive
// integer; anything else is ignored), else every core the machine has
// (std::thread::hardware_concurrency). Like libtorch's at::set_num_threads; the pool is made on the
// first parallel call.
#pragma once

#include <cstdint>

#include "runtime/function_ref.h"

namespace sops {

// Elements below which an elementwise loop is not worth splitting (libtorch's value).
inline constexpr int64_t kGrainSize = 32768;

int get_num_threads();
// n >= 1. Takes effect on the next parallel call; the pool grows or shrinks to it.
void set_num_threads(int n);
// Whether the calling thread is running a chunk of a parallel_for.
bool in_parallel_region();

namespace detail {
void parallel_run(int64_t begin, int64_t end, int64_t grain_size,
                  FunctionRef<void(int64_t, int64_t)> f);
}  // namespace detail

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  if (begin >= end) return;
#ifdef SOPS_OPTIMIZE_SIZE
  // One copy of f's code, called through the FunctionRef (parallel_run runs short
  // ranges on this thread itself), where inlining the serial call made a second.
  detail::parallel_run(begin, end, grain_size, FunctionRef<void(int64_t, int64_t)>(f));
#else
  if (end - begin <= grain_size || in_parallel_region() || get_num_threads() == 1) {
    f(begin, end);
    return;
  }
  detail::parallel_run(begin, end, grain_size, FunctionRef<void(int64_t, int64_t)>(f));
#endif
}

}  // namespace sops
