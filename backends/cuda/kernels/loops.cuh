// The element-wise launcher of the CUDA kernels: one kernel launch runs a functor over
// every element of a TensorIterator that a meta function built (the CUDA twin of
// runtime/cpu_loops.h's cpu_kernel).
//
//   gpu_kernel<scalar_t>(iter, [] __device__ (scalar_t a, scalar_t b) { return a + b; });
//
// The functor takes one argument per input and returns the result; inputs are read as
// the functor's argument type and the result is written as out's dtype, whatever the
// operands' dtypes are (the iterator's dtype rules decided them). A cpu scalar operand
// (a 0-dim cpu tensor the iterator let in) is read once on the host and passed by value.
//
// Two paths: contiguous operands of the functor's own types take vectorized loads and
// stores (4 elements per thread); anything else computes each operand's offset from the
// element's index over the iterator's coalesced loop shape and byte strides.
// Only for .cu files: include it after the kernels' own headers.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <cuda/std/tuple>
#include <tuple>
#include <type_traits>
#include <utility>

#include "backends/cuda/runtime/cuda_check.h"
#include "backends/cuda/runtime/cuda_stream.h"
#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// The grid-stride loop over work items: a thread's first index and its step.
__device__ __forceinline__ int64_t first_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t index_step() {
  return static_cast<int64_t>(blockDim.x) * gridDim.x;
}

// The iterator's loops as a kernel parameter (passed by value, so within CUDA's 4 KB).
inline constexpr int kMaxDims = 16;
inline constexpr int kMaxOperands = 4;

struct ElementwiseArgs {
  int64_t numel = 0;
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};                  // loop shape, innermost first
  int64_t strides[kMaxDims][kMaxOperands] = {};  // bytes, per dimension and operand
  char* data[kMaxOperands] = {};
  ScalarType dtypes[kMaxOperands] = {};
  bool is_scalar[kMaxOperands] = {};
  alignas(8) unsigned char scalars[kMaxOperands][8] = {};  // a cpu scalar operand's value
};

// Element `T` from `p` holding a `dtype` value, converted as sops::convert converts.
template <typename T>
__device__ __forceinline__ T device_load(const void* p, ScalarType dtype) {
  switch (dtype) {
#define SOPS_CUDA_LOAD_CASE(type, name, _) \
  case ScalarType::name:                   \
    return convert<T>(*static_cast<const type*>(p));
    SOPS_FORALL_SCALAR_TYPES(SOPS_CUDA_LOAD_CASE)
#undef SOPS_CUDA_LOAD_CASE
    default:
      return T();
  }
}

template <typename T>
__device__ __forceinline__ void device_store(void* p, ScalarType dtype, T value) {
  switch (dtype) {
#define SOPS_CUDA_STORE_CASE(type, name, _)        \
  case ScalarType::name:                           \
    *static_cast<type*>(p) = convert<type>(value); \
    return;
    SOPS_FORALL_SCALAR_TYPES(SOPS_CUDA_STORE_CASE)
#undef SOPS_CUDA_STORE_CASE
    default:
      return;
  }
}

// The functor's signature: its result and argument types.
template <typename F>
struct function_traits : function_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...) const> {
  using result = R;
  using args = std::tuple<std::decay_t<Args>...>;
  static constexpr int arity = sizeof...(Args);
};

namespace detail {

// Operand `i`'s address for element `index` (the strided path).
__device__ __forceinline__ const char* operand_ptr(const ElementwiseArgs& a, int i, int64_t index) {
  if (a.is_scalar[i]) return reinterpret_cast<const char*>(a.scalars[i]);
  int64_t offset = 0;
  for (int d = 0; d < a.ndim; ++d) {
    const int64_t size = a.sizes[d];
    offset += (index % size) * a.strides[d][i];
    index /= size;
  }
  return a.data[i] + offset;
}

template <typename F, std::size_t... I>
__device__ __forceinline__ auto apply_strided(const F& f, const ElementwiseArgs& a, int64_t index,
                                              std::index_sequence<I...>) {
  using Args = typename function_traits<F>::args;
  return f(device_load<std::tuple_element_t<I, Args>>(
      operand_ptr(a, static_cast<int>(I) + 1, index), a.dtypes[I + 1])...);
}

template <typename F>
__global__ void strided_kernel(F f, ElementwiseArgs a) {
  constexpr int kArity = function_traits<F>::arity;
  for (int64_t index = first_index(); index < a.numel; index += index_step()) {
    auto result = apply_strided(f, a, index, std::make_index_sequence<kArity>{});
    device_store(const_cast<char*>(operand_ptr(a, 0, index)), a.dtypes[0], result);
  }
}

inline constexpr int kVec = 4;

template <typename T>
struct alignas(sizeof(T) * kVec) Vec {
  T v[kVec];
};

// An input of the contiguous path: kVec elements, or a cpu scalar kVec times.
template <typename T>
__device__ __forceinline__ Vec<T> load_vec(const ElementwiseArgs& a, int i, int64_t v) {
  if (a.is_scalar[i]) {
    Vec<T> splat;
    const T value = *reinterpret_cast<const T*>(a.scalars[i]);
#pragma unroll
    for (int k = 0; k < kVec; ++k) splat.v[k] = value;
    return splat;
  }
  return reinterpret_cast<const Vec<T>*>(a.data[i])[v];
}

template <typename T>
__device__ __forceinline__ T load_one(const ElementwiseArgs& a, int i, int64_t index) {
  return a.is_scalar[i] ? *reinterpret_cast<const T*>(a.scalars[i])
                        : reinterpret_cast<const T*>(a.data[i])[index];
}

// Contiguous operands of the functor's types: kVec elements per thread and iteration,
// loaded and stored as aligned vectors; the tail (numel % kVec) element by element.
template <typename F, std::size_t... I>
__global__ void contiguous_kernel(F f, ElementwiseArgs a, std::index_sequence<I...>) {
  using Args = typename function_traits<F>::args;
  using R = typename function_traits<F>::result;
  const int64_t step = index_step();
  const int64_t first = first_index();
  const int64_t vectors = a.numel / kVec;
  for (int64_t v = first; v < vectors; v += step) {
    const ::cuda::std::tuple<Vec<std::tuple_element_t<I, Args>>...> inputs(
        load_vec<std::tuple_element_t<I, Args>>(a, static_cast<int>(I) + 1, v)...);
    Vec<R> out;
#pragma unroll
    for (int k = 0; k < kVec; ++k) out.v[k] = f(::cuda::std::get<I>(inputs).v[k]...);
    reinterpret_cast<Vec<R>*>(a.data[0])[v] = out;
  }
  for (int64_t index = vectors * kVec + first; index < a.numel; index += step) {
    reinterpret_cast<R*>(a.data[0])[index] =
        f(load_one<std::tuple_element_t<I, Args>>(a, static_cast<int>(I) + 1, index)...);
  }
}

// The iterator's operands and loops as kernel arguments (cpu scalars read here).
ElementwiseArgs make_args(const TensorIteratorBase& iter);

// A cpu scalar operand's value as dtype `to` (so that the contiguous path can take it).
void convert_scalar(ElementwiseArgs& a, int i, ScalarType to);

template <typename Tuple, std::size_t... I>
void convert_scalars(ElementwiseArgs& a, std::index_sequence<I...>) {
  (convert_scalar(a, static_cast<int>(I) + 1, scalar_type_of<std::tuple_element_t<I, Tuple>>), ...);
}

// The first device's multiprocessors, asked once (80 where the query fails).
int sm_count();
// Blocks of 256 threads, enough to fill the device a few times over; the grid-stride
// loops cover the rest.
int grid_size(int64_t work_items);

template <typename T, typename Tuple, std::size_t... I>
bool all_types_match(const ElementwiseArgs& a, std::index_sequence<I...>) {
  return a.dtypes[0] == scalar_type_of<T> &&
         ((a.dtypes[I + 1] == scalar_type_of<std::tuple_element_t<I, Tuple>>) && ...);
}

bool vectorizable(const ElementwiseArgs& a);

}  // namespace detail

inline constexpr int kThreadsPerBlock = 256;

// Launches kernel(args...) with a thread per work item (grid_size blocks of
// kThreadsPerBlock, grid-stride loops covering the rest) on the current stream; nothing
// where there is no work. `what` names the launch in the error.
template <typename Kernel, typename... Args>
void launch(Kernel kernel, int64_t work_items, const char* what, const Args&... args) {
  if (work_items <= 0) return;
  kernel<<<detail::grid_size(work_items), kThreadsPerBlock, 0, current_stream().handle()>>>(
      args...);
  check(cudaGetLastError(), what);
}

template <typename F>
void gpu_kernel(const TensorIteratorBase& iter, const F& f) {
  using Traits = function_traits<F>;
  SOPS_CHECK(iter.ninputs() == Traits::arity && iter.noutputs() == 1,
             "gpu_kernel: the functor takes ", Traits::arity, " inputs, the iterator has ",
             iter.ninputs(), " inputs and ", iter.noutputs(), " outputs");
  if (iter.numel() == 0) return;
  ElementwiseArgs args = detail::make_args(iter);
  constexpr auto inputs = std::make_index_sequence<Traits::arity>{};
  detail::convert_scalars<typename Traits::args>(args, inputs);
  using R = typename Traits::result;
  if (detail::all_types_match<R, typename Traits::args>(args, inputs) &&
      detail::vectorizable(args)) {
    const int grid = detail::grid_size((args.numel + detail::kVec - 1) / detail::kVec);
    detail::contiguous_kernel<<<grid, kThreadsPerBlock, 0, current_stream().handle()>>>(f, args,
                                                                                        inputs);
  } else {
    detail::strided_kernel<<<detail::grid_size(args.numel), kThreadsPerBlock, 0,
                             current_stream().handle()>>>(f, args);
  }
  check(cudaGetLastError(), "launching an element-wise kernel");
}

}  // namespace sops::cuda
