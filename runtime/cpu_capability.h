// Which instruction set the CPU kernels' hot loops run with, chosen once at run time.
//
// A hot loop is compiled twice from one template: SOPS_KERNEL_BASE for the build's
// target (SSE2 on x86-64, NEON on AArch64, ...) and, on x86-64, SOPS_KERNEL_AVX2 for CPUs
// with AVX2 and FMA (every x86-64 CPU since 2013-2015). Both ask GCC for the loop
// vectorizer with its dynamic cost model, which `-O2` leaves at "very cheap" (it then
// keeps most loops scalar); Clang vectorizes at -O2 already. A caller picks the clone:
//
//   if (sops::cpu_has_avx2()) loop_avx2(...); else loop_base(...);
//
// SOPS_CPU_CAPABILITY=default in the environment makes cpu_has_avx2() false, so the
// portable clones can be tested and timed on any machine.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#define SOPS_VECTORIZE_OPTIONS optimize("tree-vectorize", "vect-cost-model=dynamic")
#define SOPS_KERNEL_BASE __attribute__((SOPS_VECTORIZE_OPTIONS))
#else
#define SOPS_KERNEL_BASE
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define SOPS_HAVE_AVX2_CLONES 1
#if defined(__clang__)
#define SOPS_KERNEL_AVX2 __attribute__((target("avx2,fma")))
#else
#define SOPS_KERNEL_AVX2 __attribute__((target("avx2,fma"), SOPS_VECTORIZE_OPTIONS))
#endif
#else
#define SOPS_HAVE_AVX2_CLONES 0
#endif

#if defined(__GNUC__)
#define SOPS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SOPS_ALWAYS_INLINE inline
#endif

namespace sops {

// True on an x86-64 CPU with AVX2 and FMA, unless SOPS_CPU_CAPABILITY=default.
bool cpu_has_avx2();

// kBytes of T as one value of the compiler's portable vector extension. 32 bytes are one
// AVX register in an AVX2 clone and two SSE or NEON registers elsewhere; 16 bytes are one
// SSE or NEON register. Arithmetic is element-wise; load and store with std::memcpy (no
// alignment needed). Only these two widths: GCC drops vector_size with a dependent size.
template <typename T, int kBytes>
struct Vec;
template <typename T>
struct Vec<T, 16> {
  typedef T type __attribute__((vector_size(16)));
  static constexpr int kLanes = static_cast<int>(16 / sizeof(T));
};
template <typename T>
struct Vec<T, 32> {
  typedef T type __attribute__((vector_size(32)));
  static constexpr int kLanes = static_cast<int>(32 / sizeof(T));
};
template <typename T>
using Vec32 = Vec<T, 32>;

}  // namespace sops
