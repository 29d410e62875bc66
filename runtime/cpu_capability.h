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
// portable clones can be tested and timed on any machine. SOPS_CPU_CLONES below writes the
// two clones and the choice between them.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#define SOPS_VECTORIZE_OPTIONS optimize("tree-vectorize", "vect-cost-model=dynamic")
#define SOPS_KERNEL_BASE __attribute__((SOPS_VECTORIZE_OPTIONS))
#else
#define SOPS_KERNEL_BASE
#endif

// -DSOPS_OPTIMIZE_SIZE (what --config=mobile sets) builds one clone only, for the
// build's target: half the hot loops' code, and phones are not x86. runtime/cpu_loops.h
// then also keeps fewer specialized loops.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SOPS_OPTIMIZE_SIZE)
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
// For a lambda that takes or returns vectors and is called from both clones of a loop
// (cpu_kernel_vec's vop): `[](V x) SOPS_VEC_LAMBDA -> V { ... }`.
#define SOPS_VEC_LAMBDA __attribute__((always_inline))
#else
#define SOPS_ALWAYS_INLINE inline
#define SOPS_VEC_LAMBDA
#endif

// SOPS_CPU_CLONES(name, body): the clones of one hot loop and the function that runs the
// right one. `body` names an always-inline function template whose template arguments
// are deduced from the call. This defines name##_base (SOPS_KERNEL_BASE), on x86-64
// name##_avx2 (SOPS_KERNEL_AVX2), and name(args...), which calls name##_avx2 when
// cpu_has_avx2() and name##_base otherwise:
//
//   template <typename T>
//   SOPS_ALWAYS_INLINE double sum_body(const T* p, int64_t n) { ... }
//   SOPS_CPU_CLONES(sum_contiguous, sum_body)   // sum_contiguous(p, n)
//
// Arguments pass by value: pointers, numbers and small structs, never vectors (a vector
// cannot cross between the two targets). SOPS_CPU_CLONES_WITH takes the two attribute
// sets, for loops that want more than SOPS_KERNEL_BASE / SOPS_KERNEL_AVX2 give.
#define SOPS_CPU_CLONES(name, body) \
  SOPS_CPU_CLONES_WITH(name, body, SOPS_KERNEL_BASE, SOPS_KERNEL_AVX2)
#if SOPS_HAVE_AVX2_CLONES
#define SOPS_CPU_CLONES_WITH(name, body, base_attributes, avx2_attributes) \
  template <typename... A>                                                 \
  base_attributes auto name##_base(A... a) {                               \
    return body(a...);                                                     \
  }                                                                        \
  template <typename... A>                                                 \
  avx2_attributes auto name##_avx2(A... a) {                               \
    return body(a...);                                                     \
  }                                                                        \
  template <typename... A>                                                 \
  auto name(A... a) {                                                      \
    if (::sops::cpu_has_avx2()) return name##_avx2(a...);                  \
    return name##_base(a...);                                              \
  }
#else
#define SOPS_CPU_CLONES_WITH(name, body, base_attributes, avx2_attributes) \
  template <typename... A>                                                 \
  base_attributes auto name(A... a) {                                      \
    return body(a...);                                                     \
  }
#endif

namespace sops {

// What cpu_has_avx2() returns: reads the CPU and the environment (once).
bool detect_cpu_avx2();

// True on an x86-64 CPU with AVX2 and FMA, unless SOPS_CPU_CAPABILITY=default. Inline:
// the loops ask once per run of elements, and the answer is a load and a branch.
inline bool cpu_has_avx2() {
  static const bool has = detect_cpu_avx2();
  return has;
}

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
