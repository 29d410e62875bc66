// Timing helpers shared by the benchmarks: ns per call of a loop, medians, rounds of
// interleaved variants and their report, command-line flags, the process set-up.
// Header-only and free of both our runtime and libtorch, so each side's
// translation unit times itself the same way.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string>
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
  return std::chrono::duration<double, std::nano>(stop - start).count() /
         static_cast<double>(calls);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  if (n == 0) return 0.0;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// `--name=N` of the command line, or `fallback`.
inline int64_t flag(int argc, char** argv, const char* name, int64_t fallback) {
  const std::size_t len = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], name, len) == 0 && argv[i][len] == '=') {
      return std::strtoll(argv[i] + len + 1, nullptr, 10);
    }
  }
  return fallback;
}

// Comma-separated `--name=a,b` of the command line (empty: not given).
inline std::vector<std::string> list_flag(int argc, char** argv, const char* name) {
  std::vector<std::string> out;
  const std::size_t len = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], name, len) != 0 || argv[i][len] != '=') continue;
    std::string rest = argv[i] + len + 1;
    for (std::size_t pos; (pos = rest.find(',')) != std::string::npos; rest.erase(0, pos + 1)) {
      out.push_back(rest.substr(0, pos));
    }
    if (!rest.empty()) out.push_back(rest);
  }
  return out;
}

// One contender of a benchmark: ns per call over that many calls, and its samples.
struct Variant {
  std::string name;
  std::function<double(int64_t)> run;
  std::vector<double> samples;
};

// A warm-up call of each variant (caches, allocators, lazy init), then `rounds` rounds
// of `calls` calls, the variants interleaved so that noise hits them alike.
inline void run_rounds(std::vector<Variant>& variants, int64_t rounds, int64_t calls) {
  for (Variant& v : variants) v.run(calls);
  for (int64_t r = 0; r < rounds; ++r) {
    for (Variant& v : variants) v.samples.push_back(v.run(calls));
  }
}

// One line per variant: its median, and, when variants[0] is a baseline, the ratio to
// it ("0.23x <versus>"), with `first_note` after the first ratio (e.g. a goal).
inline void print_medians(const std::vector<Variant>& variants, bool baseline, const char* versus,
                          const char* first_note = "") {
  std::size_t width = 0;
  for (const Variant& v : variants) width = std::max(width, v.name.size());
  const double base = baseline ? median(variants[0].samples) : 0.0;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const double m = median(variants[i].samples);
    std::printf("  %-*s %8.1f ns", static_cast<int>(width), variants[i].name.c_str(), m);
    if (!baseline) {
      std::printf("\n");
    } else if (i == 0) {
      std::printf("   (baseline)\n");
    } else {
      std::printf("   %.2fx %s%s\n", m / base, versus, i == 1 ? first_note : "");
    }
  }
}

// Before timing: says so when the build is not optimized, and keeps freed memory in the
// process. Both sides allocate their results with malloc; by default glibc hands a freed
// multi-megabyte block back to the kernel (munmap or trim) and the next result pays a
// page fault per 4 KB page, a cost that swung one workload from 0.2 to 1.2 ms between
// runs. Keeping freed memory times the kernels, the same for both.
inline void prepare_process() {
#ifndef __OPTIMIZE__
  std::printf("(built without optimization: these numbers mean little; use -c opt)\n");
#endif
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

}  // namespace sops_bench
