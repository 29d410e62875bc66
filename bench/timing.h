// Timing helpers shared by the benchmarks: ns per call of a loop, medians.
// Header-only and free of both our runtime and libtorch, so each side's
// translation unit times itself the same way.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace sops_bench {

// Keeps the compiler from dropping a computation whose result is unused.
template <class T>
inline void escape(const T* p) {
  asm volatile("" : : "g"(p) : "memory");
}

// Mean ns per call of `calls` back-to-back calls of f().
template <class F>
double ns_per_call(int64_t calls, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < calls; ++i) f();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(stop - start).count() / static_cast<double>(calls);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  if (n == 0) return 0.0;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace sops_bench
