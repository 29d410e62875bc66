// cpu_kernel: run an element-wise lambda over a built TensorIteratorBase on cpu.
//
//   sops::cpu_kernel(iter, [](float a, float b) -> float { return a + b; });
//
// The lambda takes one argument per input and returns the value of output 0. When
// every operand's dtype is the lambda's type, elements are accessed directly (a
// tight loop when contiguous); otherwise each input is converted from its dtype to
// the argument type as it is read, and the result to the output's dtype as it is
// written. Inputs broadcast along the loop have stride 0 and are re-read.
//
// Speed: the common runs (every operand of the lambda's type, the output and each input
// unit-stride, or an input broadcast with stride 0) go through a loop compiled twice,
// for the build's target and for AVX2+FMA, where the compiler vectorizes the inlined
// lambda (runtime/cpu_capability.h); keep lambdas branch-free expressions of their
// arguments (`x < 0 ? 0 : x`, not `if`) so they vectorize. Iterations of at least
// kGrainSize elements are split over sops::parallel_for.
#pragma once

#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "runtime/cpu_capability.h"
#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/parallel.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor_iterator.h"

namespace sops {

// Return and argument types of a callable (lambda, function pointer, functor).
template <typename F>
struct function_traits : function_traits<decltype(&std::decay_t<F>::operator())> {};
template <typename R, typename... A>
struct function_traits<R (*)(A...)> {
  using result_type = std::decay_t<R>;
  using arg_types = std::tuple<std::decay_t<A>...>;
  static constexpr std::size_t arity = sizeof...(A);
};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...) const> : function_traits<R (*)(A...)> {};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...)> : function_traits<R (*)(A...)> {};

namespace detail {

template <typename Traits, std::size_t I>
using arg_t = std::tuple_element_t<I, typename Traits::arg_types>;

// Whether the loops built for speed alone are compiled: many rows per call
// (TensorIteratorBase::for_each_2d), and runs with an input broadcast along them (stride
// 0). Not in size builds (SOPS_OPTIMIZE_SIZE): one row at a time keeps each loop smaller
// (8 KB over the mobile runtime's kernels) at the cost of a call per row, and broadcast
// runs take the strided loop.
#ifdef SOPS_OPTIMIZE_SIZE
inline constexpr bool kSpeedLoops = false;
#else
inline constexpr bool kSpeedLoops = true;
#endif

// The loop of cpu_kernel and cpu_kernel_vec: `rows` runs of n elements, run r of operand
// i from data[i] + r * outer[i] (TensorIteratorBase::loop2d_t); always one run where
// !kSpeedLoops.
struct Runs {
  char** data;
  const int64_t* strides;
  int64_t n;
  int64_t rows_;
  const int64_t* outer;

  int64_t rows() const { return kSpeedLoops ? rows_ : 1; }
  char* at(std::size_t operand, int64_t row) const {
    return kSpeedLoops ? data[operand] + row * outer[operand] : data[operand];
  }
};

// Unit-stride runs: output and inputs contiguous, except the inputs whose bit is set in
// kBroadcast, which have stride 0 (one value for the whole run).
template <typename Traits, unsigned kBroadcast, typename Op, std::size_t... I>
SOPS_ALWAYS_INLINE void unit_stride_body(const Runs& runs, Op& op, std::index_sequence<I...>) {
  using R = typename Traits::result_type;
  for (int64_t r = 0; r < runs.rows(); ++r) {
    R* out = reinterpret_cast<R*>(runs.at(0, r));
    const std::tuple<const arg_t<Traits, I>*...> in{
        reinterpret_cast<const arg_t<Traits, I>*>(runs.at(I + 1, r))...};
    for (int64_t k = 0; k < runs.n; ++k) {
      out[k] = op(std::get<I>(in)[((kBroadcast >> I) & 1u) != 0 ? 0 : k]...);
    }
  }
}

template <typename Traits, unsigned kBroadcast, typename Op, std::size_t... I>
SOPS_KERNEL_BASE void unit_stride_base(const Runs& runs, Op& op, std::index_sequence<I...> is) {
  unit_stride_body<Traits, kBroadcast>(runs, op, is);
}

#if SOPS_HAVE_AVX2_CLONES
template <typename Traits, unsigned kBroadcast, typename Op, std::size_t... I>
SOPS_KERNEL_AVX2 void unit_stride_avx2(const Runs& runs, Op& op, std::index_sequence<I...> is) {
  unit_stride_body<Traits, kBroadcast>(runs, op, is);
}
#endif

template <typename Traits, unsigned kBroadcast, typename Op, std::size_t... I>
void unit_stride_loop(const Runs& runs, Op& op, std::index_sequence<I...> is) {
#if SOPS_HAVE_AVX2_CLONES
  if (cpu_has_avx2()) {
    unit_stride_avx2<Traits, kBroadcast>(runs, op, is);
    return;
  }
#endif
  unit_stride_base<Traits, kBroadcast>(runs, op, is);
}

// Which inputs have stride 0 in this run (bit i for input i), or -1 when the output or
// an input is neither unit-stride nor stride 0.
template <typename Traits, std::size_t... I>
int unit_stride_pattern(const int64_t* strides, std::index_sequence<I...>) {
  using R = typename Traits::result_type;
  if (strides[0] != static_cast<int64_t>(sizeof(R))) return -1;
  int pattern = 0;
  const bool ok = ((strides[I + 1] == static_cast<int64_t>(sizeof(arg_t<Traits, I>)) ||
                    (strides[I + 1] == 0 && ((pattern |= 1 << I), true))) &&
                   ...);
  return ok ? pattern : -1;
}

template <typename Traits, typename Op, std::size_t... I>
void cpu_loop_exact(const Runs& runs, Op& op, std::index_sequence<I...> is) {
  using R = typename Traits::result_type;
  switch (unit_stride_pattern<Traits>(runs.strides, is)) {
    case 0:
      unit_stride_loop<Traits, 0u>(runs, op, is);
      return;
    case 1:
      if constexpr (kSpeedLoops) {
        unit_stride_loop<Traits, 1u>(runs, op, is);
        return;
      }
      break;
    case 2:
      if constexpr (kSpeedLoops && sizeof...(I) >= 2) {
        unit_stride_loop<Traits, 2u>(runs, op, is);
        return;
      }
      break;
    default:
      break;
  }
  const int64_t* s = runs.strides;
  for (int64_t r = 0; r < runs.rows(); ++r) {
    for (int64_t k = 0; k < runs.n; ++k) {
      *reinterpret_cast<R*>(runs.at(0, r) + k * s[0]) =
          op(*reinterpret_cast<const arg_t<Traits, I>*>(runs.at(I + 1, r) + k * s[I + 1])...);
    }
  }
}

template <typename Traits, typename Op, std::size_t... I>
void cpu_loop_casting(const Runs& runs, Op& op, const ScalarType* dtypes,
                      std::index_sequence<I...>) {
  using R = typename Traits::result_type;
  const int64_t* s = runs.strides;
  for (int64_t r = 0; r < runs.rows(); ++r) {
    for (int64_t k = 0; k < runs.n; ++k) {
      R v = op(load_as<arg_t<Traits, I>>(runs.at(I + 1, r) + k * s[I + 1], dtypes[I + 1])...);
      store_as<R>(runs.at(0, r) + k * s[0], dtypes[0], v);
    }
  }
}

// cpu_kernel has checked that the iterator has 1 + sizeof...(I) operands.
template <typename Traits, std::size_t... I>
bool dtypes_match(const TensorIteratorBase& iter, std::index_sequence<I...>) {
  return iter.dtype_unchecked(0) == scalar_type_of<typename Traits::result_type> &&
         ((iter.dtype_unchecked(static_cast<int>(I) + 1) == scalar_type_of<arg_t<Traits, I>>) &&
          ...);
}

// cpu_kernel_vec's unit-stride run: vop on Vec32 chunks (broadcast inputs splatted once),
// op on the tail.
template <typename Traits, unsigned kBroadcast, typename Op, typename VOp, std::size_t... I>
SOPS_ALWAYS_INLINE void vec_unit_stride_run(char** data, int64_t n, Op& op, VOp& vop,
                                            std::index_sequence<I...>) {
  using T = typename Traits::result_type;
  using V = typename Vec32<T>::type;
  constexpr int64_t W = Vec32<T>::kLanes;
  T* out = reinterpret_cast<T*>(data[0]);
  const std::tuple<const arg_t<Traits, I>*...> in{
      reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1])...};
  auto chunk = [&](auto index, int64_t k) SOPS_VEC_LAMBDA -> V {
    constexpr std::size_t i = decltype(index)::value;
    const T* p = std::get<i>(in);
    if constexpr (((kBroadcast >> i) & 1u) != 0) {
      V v;  // every lane p[0] (not V{} + p[0], which would turn -0.0 into +0.0)
      for (int64_t l = 0; l < W; ++l) v[l] = p[0];
      return v;
    } else {
      V v;
      std::memcpy(&v, p + k, sizeof(V));
      return v;
    }
  };
  int64_t k = 0;
  for (; k + W <= n; k += W) {
    const V r = vop(chunk(std::integral_constant<std::size_t, I>{}, k)...);
    std::memcpy(out + k, &r, sizeof(V));
  }
  for (; k < n; ++k) out[k] = op(std::get<I>(in)[((kBroadcast >> I) & 1u) != 0 ? 0 : k]...);
}

template <typename Traits, unsigned kBroadcast, typename Op, typename VOp, std::size_t... I>
SOPS_ALWAYS_INLINE void vec_unit_stride_body(const Runs& runs, Op& op, VOp& vop,
                                             std::index_sequence<I...> is) {
  for (int64_t r = 0; r < runs.rows(); ++r) {
    char* data[] = {runs.at(0, r), runs.at(I + 1, r)...};
    vec_unit_stride_run<Traits, kBroadcast>(data, runs.n, op, vop, is);
  }
}

// The clones of cpu_kernel_vec's unit-stride run, as unit_stride_loop's. vop takes and
// returns vectors, which an AVX2 function and a default-target one pass in different
// registers (GCC's -Wpsabi): vop must therefore be inlined into each clone, which is why
// cpu_kernel_vec requires it declared SOPS_VEC_LAMBDA (always_inline; GCC refuses to
// compile a call it cannot inline rather than call across the two targets).
template <typename Traits, unsigned kBroadcast, typename Op, typename VOp, std::size_t... I>
SOPS_KERNEL_BASE void vec_unit_stride_base(const Runs& runs, Op& op, VOp& vop,
                                           std::index_sequence<I...> is) {
  vec_unit_stride_body<Traits, kBroadcast>(runs, op, vop, is);
}

#if SOPS_HAVE_AVX2_CLONES
template <typename Traits, unsigned kBroadcast, typename Op, typename VOp, std::size_t... I>
SOPS_KERNEL_AVX2 void vec_unit_stride_avx2(const Runs& runs, Op& op, VOp& vop,
                                           std::index_sequence<I...> is) {
  vec_unit_stride_body<Traits, kBroadcast>(runs, op, vop, is);
}
#endif

template <typename Traits, unsigned kBroadcast, typename Op, typename VOp, std::size_t... I>
void vec_unit_stride_loop(const Runs& runs, Op& op, VOp& vop, std::index_sequence<I...> is) {
#if SOPS_HAVE_AVX2_CLONES
  if (cpu_has_avx2()) {
    vec_unit_stride_avx2<Traits, kBroadcast>(runs, op, vop, is);
    return;
  }
#endif
  vec_unit_stride_base<Traits, kBroadcast>(runs, op, vop, is);
}

template <typename Traits, typename Op, typename VOp, std::size_t... I>
void cpu_loop_vec(const Runs& runs, Op& op, VOp& vop, std::index_sequence<I...> is) {
  switch (unit_stride_pattern<Traits>(runs.strides, is)) {
    case 0:
      vec_unit_stride_loop<Traits, 0u>(runs, op, vop, is);
      return;
    case 1:
      if constexpr (kSpeedLoops) {
        vec_unit_stride_loop<Traits, 1u>(runs, op, vop, is);
        return;
      }
      break;
    case 2:
      if constexpr (kSpeedLoops && sizeof...(I) >= 2) {
        vec_unit_stride_loop<Traits, 2u>(runs, op, vop, is);
        return;
      }
      break;
    default:
      break;
  }
  cpu_loop_exact<Traits>(runs, op, is);
}

template <typename Traits, std::size_t... I>
constexpr bool args_are_result_type(std::index_sequence<I...>) {
  return (std::is_same_v<arg_t<Traits, I>, typename Traits::result_type> && ...);
}

// iter.for_each_2d(loop(Runs)), split over the thread pool when the iteration is large.
template <typename Loop>
void for_each_maybe_parallel(const TensorIteratorBase& iter, Loop&& loop) {
  auto loop2d = [&](char** data, const int64_t* strides, int64_t n, int64_t rows,
                    const int64_t* outer) { loop(Runs{data, strides, n, rows, outer}); };
  auto loop1d = [&](char** data, const int64_t* strides, int64_t n) {
    loop(Runs{data, strides, n, 1, nullptr});
  };
  const int64_t numel = iter.numel();
  if (numel < kGrainSize || get_num_threads() == 1 || in_parallel_region()) {
    if constexpr (kSpeedLoops) {
      iter.for_each_2d(loop2d);
    } else {
      iter.for_each(loop1d);
    }
    return;
  }
  parallel_for(0, numel, kGrainSize, [&](int64_t begin, int64_t end) {
    if constexpr (kSpeedLoops) {
      iter.serial_for_each_2d(loop2d, begin, end);
    } else {
      iter.serial_for_each(loop1d, begin, end);
    }
  });
}

}  // namespace detail

template <typename Op>
void cpu_kernel(const TensorIteratorBase& iter, Op&& op) {
  using Traits = function_traits<Op>;
  constexpr std::size_t arity = Traits::arity;
  using Indices = std::make_index_sequence<arity>;
  static_assert(!std::is_void_v<typename Traits::result_type>,
                "cpu_kernel: the lambda must return the output value");
  SOPS_CHECK(iter.noutputs() == 1, "cpu_kernel: expected 1 output but the iterator has ",
             iter.noutputs());
  SOPS_CHECK(iter.ninputs() == static_cast<int>(arity), "cpu_kernel: the lambda takes ", arity,
             " arguments but the iterator has ", iter.ninputs(), " inputs");
  SOPS_CHECK(iter.device_type(0) == DeviceType::CPU, "cpu_kernel: the output is on ",
             iter.device(0), ", not cpu");
  if (detail::dtypes_match<Traits>(iter, Indices{})) {
    detail::for_each_maybe_parallel(
        iter, [&](detail::Runs runs) { detail::cpu_loop_exact<Traits>(runs, op, Indices{}); });
    return;
  }
  std::array<ScalarType, kMaxOperands> dtypes{};
  for (int i = 0; i < iter.ntensors(); ++i) dtypes[static_cast<std::size_t>(i)] = iter.dtype(i);
  detail::for_each_maybe_parallel(iter, [&](detail::Runs runs) {
    detail::cpu_loop_casting<Traits>(runs, op, dtypes.data(), Indices{});
  });
}

// cpu_kernel with a vector form of the lambda, for what the compiler cannot vectorize
// from the scalar one (exp, tanh, NaN-propagating max, ...):
//
//   sops::cpu_kernel_vec(iter,
//       [](float x) -> float { return 1 / (1 + std::exp(-x)); },
//       [](vec::Vf x) SOPS_VEC_LAMBDA -> vec::Vf { return vec::sigmoid(x); });
//
// Every argument and the result must have one element type T (not bool) and vop takes
// and returns Vec32<T>::type (runtime/vec_math.h has exp, sigmoid, tanh, erf), and is
// declared SOPS_VEC_LAMBDA so that it compiles into both clones of the loop. vop runs on
// 32-byte chunks of unit-stride runs (an input broadcast along the run is splatted);
// op runs on the tails, on strided runs, and on everything when an operand's dtype is
// not T (the casting path of cpu_kernel).
template <typename Op, typename VOp>
void cpu_kernel_vec(const TensorIteratorBase& iter, Op&& op, VOp&& vop) {
  using Traits = function_traits<Op>;
  using T = typename Traits::result_type;
  using Indices = std::make_index_sequence<Traits::arity>;
  static_assert(!std::is_same_v<T, bool>, "cpu_kernel_vec: bool has no vector type");
  static_assert(detail::args_are_result_type<Traits>(Indices{}),
                "cpu_kernel_vec: every argument must have the result's type");
  if (!detail::dtypes_match<Traits>(iter, Indices{}) || iter.noutputs() != 1 ||
      iter.ninputs() != static_cast<int>(Traits::arity) || iter.device_type(0) != DeviceType::CPU) {
    cpu_kernel(iter, std::forward<Op>(op));
    return;
  }
  detail::for_each_maybe_parallel(
      iter, [&](detail::Runs runs) { detail::cpu_loop_vec<Traits>(runs, op, vop, Indices{}); });
}

}  // namespace sops
