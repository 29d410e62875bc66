// sum, mean, amax, amin, any and argmax on CUDA: the CPU kernels' semantics
// (backends/cpu/kernels/reduce_ops.cpp) on one generic reduction kernel.
//
// Design. The host splits self's dimensions into kept ones (one output each) and reduced
// ones, drops those of size 1 and merges neighbours that step as one (ReduceGeometry: at
// most 16 each, innermost first, byte strides; reduced ones in the CPU plan's order, or
// in logical order for argmax, whose index is row-major). Blocks of 256 threads are `rows`
// groups of `group` threads; a group reduces one output, its threads striding over the
// reduced elements (offsets computed from the element's index), then a shared-memory tree.
// `group` is 1 when neighbouring outputs are neighbouring input elements (a sum over dim
// 0: coalesced loads), else the power of two covering the reduction (at most 256). Too
// few outputs to fill the device: each reduction is split over gridDim.y blocks writing
// partial accumulators, which a second kernel combines in order. Out's own strides.
//
// An Op (functor structs, not __device__ lambdas: dispatch bodies are generic lambdas):
//   using acc_t;  acc_t identity() const;  void write(char* out, acc_t acc) const;
//   acc_t reduce(acc_t acc, const char* element, int64_t index) const;  index: row-major
//   acc_t combine(acc_t a, acc_t b) const;  a holds the lower indices
#include <cuda_runtime.h>
#include <cuda/std/limits>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/reduce_kernels.h"
#include "backends/cuda/runtime/cuda_check.h"
#include "backends/cuda/runtime/cuda_stream.h"
#include "ops/util/scalar_math.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

constexpr int kMaxReduceDims = 16;
constexpr int kBlockThreads = 256;

// The loops of a reduction, innermost dimension first, strides in bytes.
struct ReduceGeometry {
  int n_kept = 0, n_red = 0;
  int64_t kept_sizes[kMaxReduceDims] = {}, kept_in[kMaxReduceDims] = {};
  int64_t kept_out[kMaxReduceDims] = {};
  int64_t red_sizes[kMaxReduceDims] = {}, red_in[kMaxReduceDims] = {};
  int64_t out_numel = 1, red_numel = 1;
};

// ---------------------------------------------------------------- host: the geometry

struct HostDim {
  int64_t size, in, out;  // out: 0 for reduced dimensions
};

// `dims` (outermost first) with each outer dimension merged into the inner one after it
// when together they step as one (the index order inside stays row-major); innermost first.
std::vector<HostDim> merged(const std::vector<HostDim>& dims) {
  std::vector<HostDim> result;
  for (const HostDim& k : dims) {
    HostDim* last = result.empty() ? nullptr : &result.back();
    if (last != nullptr && last->in == k.in * k.size && last->out == k.out * k.size) {
      *last = {last->size * k.size, k.in, k.out};
    } else {
      result.push_back(k);
    }
  }
  SOPS_CHECK(result.size() <= kMaxReduceDims, "CUDA reductions take at most ", kMaxReduceDims,
             " kept and reduced dimensions each after merging, got ", result.size());
  std::reverse(result.begin(), result.end());
  return result;
}

// `sort_reduced`: the reduced dimensions by decreasing stride, as the CPU's plan sorts
// them (the order of a floating sum); else in logical order (argmax's row-major index).
ReduceGeometry make_geometry(const Tensor& self, uint64_t mask, const Tensor& out, bool keepdim,
                             bool sort_reduced) {
  SOPS_CHECK(self.dim() <= 64, "reductions support at most 64 dimensions, got ", self.dim());
  const auto in_size = static_cast<int64_t>(self.element_size());
  const auto out_size = static_cast<int64_t>(out.element_size());
  ReduceGeometry g;
  std::vector<HostDim> kept, reduced;  // outermost first
  int64_t out_d = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t size = self.size(d);
    if ((mask >> d) & 1u) {
      g.red_numel *= size;
      if (size != 1) reduced.push_back({size, self.stride(d) * in_size, 0});
      if (keepdim) ++out_d;
      continue;
    }
    const int64_t od = out_d++;
    g.out_numel *= size;
    if (size != 1) kept.push_back({size, self.stride(d) * in_size, out.stride(od) * out_size});
  }
  if (sort_reduced) {
    std::stable_sort(reduced.begin(), reduced.end(),
                     [](const HostDim& a, const HostDim& b) { return a.in > b.in; });
  }
  if (reduced.empty()) reduced.push_back({1, 0, 0});  // nothing reduced: one element
  const std::vector<HostDim> k = merged(kept), r = merged(reduced);
  g.n_kept = static_cast<int>(k.size());
  g.n_red = static_cast<int>(r.size());
  for (std::size_t i = 0; i < k.size(); ++i) {
    g.kept_sizes[i] = k[i].size;
    g.kept_in[i] = k[i].in;
    g.kept_out[i] = k[i].out;
  }
  for (std::size_t i = 0; i < r.size(); ++i) {
    g.red_sizes[i] = r[i].size;
    g.red_in[i] = r[i].in;
  }
  return g;
}

// ---------------------------------------------------------------- device: element access

template <typename T>
constexpr bool kFloat = std::is_floating_point_v<T> || is_reduced_float_v<T>;

__device__ __forceinline__ int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

__device__ __forceinline__ void kept_offsets(const ReduceGeometry& g, int64_t o, int64_t& in,
                                             int64_t& out) {
  in = 0;
  out = 0;
  for (int d = 0; d < g.n_kept; ++d) {
    const int64_t size = g.kept_sizes[d];
    const int64_t i = o % size;
    o /= size;
    in += i * g.kept_in[d];
    out += i * g.kept_out[d];
  }
}

// Byte offset of reduced element `r` (row-major over the reduced dimensions).
__device__ __forceinline__ int64_t red_offset(const ReduceGeometry& g, int64_t r) {
  if (g.n_red == 1) return r * g.red_in[0];
  int64_t offset = 0;
  for (int d = 0; d < g.n_red; ++d) {
    const int64_t size = g.red_sizes[d];
    offset += (r % size) * g.red_in[d];
    r /= size;
  }
  return offset;
}

// Reduced elements begin, begin + step, ... (< end) of the output whose input is at `in`.
template <typename Op>
__device__ typename Op::acc_t reduce_range(const Op& op, const ReduceGeometry& g, const char* in,
                                           int64_t begin, int64_t end, int64_t step,
                                           typename Op::acc_t acc) {
  if (step == 1 && g.n_red > 1) {
    // One offset computation per run of the innermost reduced dimension.
    const int64_t inner = g.red_sizes[0], stride = g.red_in[0];
    int64_t r = begin;
    while (r < end) {
      const char* p = in + red_offset(g, r);
      const int64_t n = min64(inner - r % inner, end - r);
      for (int64_t k = 0; k < n; ++k) acc = op.reduce(acc, p + k * stride, r + k);
      r += n;
    }
    return acc;
  }
  for (int64_t r = begin; r < end; r += step) acc = op.reduce(acc, in + red_offset(g, r), r);
  return acc;
}

// ---------------------------------------------------------------- device: the kernels

// Block (group, rows): thread (x, y) works for output first + y on its reduced elements
// [chunk * blockIdx.y, chunk * (blockIdx.y + 1)) that are x modulo group. With `partial`,
// the group's accumulator goes to partial[o * gridDim.y + blockIdx.y], else to out.
template <typename Op>
__global__ void __launch_bounds__(kBlockThreads)
    reduce_kernel(Op op, ReduceGeometry g, const char* in, char* out, typename Op::acc_t* partial,
                  int64_t chunk) {
  using acc_t = typename Op::acc_t;
  __shared__ acc_t buf[kBlockThreads];
  const int group = static_cast<int>(blockDim.x);
  const int rows = static_cast<int>(blockDim.y);
  const int x = static_cast<int>(threadIdx.x);
  const int tid = static_cast<int>(threadIdx.y) * group + x;
  const int64_t split = blockIdx.y, begin = split * chunk;
  const int64_t end = min64(g.red_numel, begin + chunk);
  // The same trip count for every thread of the block: they meet at __syncthreads.
  for (int64_t first = static_cast<int64_t>(blockIdx.x) * rows; first < g.out_numel;
       first += static_cast<int64_t>(gridDim.x) * rows) {
    const int64_t o = first + threadIdx.y;
    acc_t acc = op.identity();
    int64_t in_off = 0, out_off = 0;
    if (o < g.out_numel) {
      kept_offsets(g, o, in_off, out_off);
      acc = reduce_range(op, g, in + in_off, begin + x, end, group, acc);
    }
    if (group > 1) {
      buf[tid] = acc;
      __syncthreads();
      for (int s = group / 2; s > 0; s /= 2) {
        if (x < s) buf[tid] = op.combine(buf[tid], buf[tid + s]);
        __syncthreads();
      }
      acc = buf[tid];
      __syncthreads();  // buf is written again by the next round
    }
    if (x == 0 && o < g.out_numel) {
      if (partial != nullptr) {
        partial[o * gridDim.y + split] = acc;
      } else {
        op.write(out + out_off, acc);
      }
    }
  }
}

// One thread per output: its `splits` partial accumulators combined in order.
template <typename Op>
__global__ void finish_kernel(Op op, ReduceGeometry g, const typename Op::acc_t* partial,
                              int64_t splits, char* out) {
  for (int64_t o = first_index(); o < g.out_numel; o += index_step()) {
    typename Op::acc_t acc = op.identity();
    for (int64_t s = 0; s < splits; ++s) acc = op.combine(acc, partial[o * splits + s]);
    int64_t in_off = 0, out_off = 0;
    kept_offsets(g, o, in_off, out_off);
    op.write(out + out_off, acc);
  }
}

// ---------------------------------------------------------------- the reductions

template <typename T>
__device__ __forceinline__ bool is_nan(T v) {
  return kFloat<T> && v != v;  // never true for integers
}

// sum and mean of T (out's dtype): elements converted to T first, floating ones (16-bit
// floats through float) accumulated in double, integers wrapping in T, bool as "or".
template <typename T>
struct SumOp {
  using acc_t = std::conditional_t<kFloat<T>, double, T>;
  ScalarType in_dtype;
  double divisor;  // 1 for sum, the reduced element count for mean

  __device__ acc_t identity() const { return acc_t(0); }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else {
      return aten::math::wrapping_add(a, b);
    }
  }
  __device__ acc_t reduce(acc_t acc, const char* p, int64_t /*index*/) const {
    const T x = device_load<T>(p, in_dtype);
    if constexpr (is_reduced_float_v<T>) return acc + static_cast<double>(static_cast<float>(x));
    return combine(acc, static_cast<acc_t>(x));
  }
  __device__ void write(char* out, acc_t a) const {
    // 16-bit floats: the CPU reduces into a float32 result, then rounds that once more.
    if constexpr (is_reduced_float_v<T>) {
      *reinterpret_cast<T*>(out) = T(static_cast<float>(a / divisor));
    } else if constexpr (kFloat<T>) {
      *reinterpret_cast<T*>(out) = static_cast<T>(a / divisor);
    } else {
      *reinterpret_cast<T*>(out) = a;
    }
  }
};

// amax (kMax) or amin: NaN wins over every number.
template <typename T, bool kMax>
struct MinMaxOp {
  using acc_t = T;
  using limits = ::cuda::std::numeric_limits<T>;

  __device__ T identity() const {
    if constexpr (std::is_same_v<T, bool>) return !kMax;
    if constexpr (kFloat<T>) return kMax ? -limits::infinity() : limits::infinity();
    return kMax ? limits::lowest() : limits::max();
  }
  __device__ T combine(T a, T b) const {
    if (is_nan(b)) return b;
    return (kMax ? b > a : b < a) ? b : a;
  }
  __device__ T reduce(T acc, const char* p, int64_t /*index*/) const {
    return combine(acc, *reinterpret_cast<const T*>(p));
  }
  __device__ void write(char* out, T a) const { *reinterpret_cast<T*>(out) = a; }
};

// any: whether some element is non-zero (NaN counts), one byte 0 or 1 (bool or uint8 out).
template <typename T>
struct AnyOp {
  using acc_t = bool;
  __device__ bool identity() const { return false; }
  __device__ bool combine(bool a, bool b) const { return a || b; }
  __device__ bool reduce(bool acc, const char* p, int64_t /*index*/) const {
    return acc || *reinterpret_cast<const T*>(p) != T(0);
  }
  __device__ void write(char* out, bool a) const { *reinterpret_cast<uint8_t*>(out) = a ? 1 : 0; }
};

// argmax: the first index of the maximum; NaN is larger than every number (the first wins).
template <typename T>
struct ArgmaxOp {
  struct acc_t {
    T value;
    int64_t index;  // < 0: no element yet
  };
  __device__ acc_t identity() const { return acc_t{T(0), -1}; }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (a.index < 0 || b.index < 0) return a.index < 0 ? b : a;
    const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
    if (a_nan != b_nan) return a_nan ? a : b;
    if (!a_nan && a.value != b.value) return a.value > b.value ? a : b;
    return a.index <= b.index ? a : b;  // equal values (or two NaNs): the first
  }
  __device__ acc_t reduce(acc_t acc, const char* p, int64_t index) const {
    return combine(acc, acc_t{*reinterpret_cast<const T*>(p), index});
  }
  __device__ void write(char* out, acc_t a) const { *reinterpret_cast<int64_t*>(out) = a.index; }
};

// ---------------------------------------------------------------- host: the launch

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <typename Op>
void launch_reduction(const Op& op, const ReduceGeometry& g, const Tensor& self,
                      const Tensor& out) {
  using acc_t = typename Op::acc_t;
  if (g.out_numel == 0) return;
  const char* in = static_cast<const char*>(self.const_data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  const auto element = static_cast<int64_t>(self.element_size());
  const int64_t sms = detail::sm_count();
  // Neighbouring outputs at neighbouring input elements, the reduction strided: one thread
  // per output, so that a warp's loads are contiguous.
  const bool column = g.n_kept > 0 && g.kept_in[0] == element && g.red_in[0] != element;
  int group = 1;
  if (!column) {
    while (group < kBlockThreads && group < g.red_numel) group *= 2;
  }
  const int rows = kBlockThreads / group;
  const int64_t blocks = ceil_div(g.out_numel, rows);
  // Too few outputs to fill the device: each reduction split over gridDim.y blocks of at
  // least kMinPerThread elements per thread.
  constexpr int64_t kMinPerThread = 128;
  const int64_t target_blocks = sms * 8;
  int64_t splits = 1, chunk = g.red_numel;
  if (blocks < target_blocks && g.red_numel > group * kMinPerThread) {
    splits = std::min({ceil_div(target_blocks, blocks),
                       ceil_div(g.red_numel, group * kMinPerThread), int64_t{65535}});
    chunk = ceil_div(g.red_numel, splits);
    splits = ceil_div(g.red_numel, chunk);  // no empty split
  }
  // Split: partial accumulators in a workspace, which goes back to the caching allocator
  // at the end; the allocator hands it only to later work on the same (current) stream,
  // which runs after these kernels.
  Tensor workspace;
  acc_t* partial = nullptr;
  if (splits > 1) {
    const int64_t bytes = g.out_numel * splits * static_cast<int64_t>(sizeof(acc_t));
    workspace =
        sops::empty(IntArrayRef(&bytes, 1), TensorOptions(ScalarType::Byte).device(self.device()));
    partial = static_cast<acc_t*>(workspace.data_ptr());
  }
  const dim3 grid(static_cast<unsigned>(std::min(blocks, sms * 32)), static_cast<unsigned>(splits));
  const dim3 block(static_cast<unsigned>(group), static_cast<unsigned>(rows));
  reduce_kernel<<<grid, block, 0, current_stream().handle()>>>(op, g, in, dst, partial, chunk);
  check(cudaGetLastError(), "launching a reduction kernel");
  if (splits == 1) return;
  const int64_t finish_blocks = std::min(ceil_div(g.out_numel, kBlockThreads), sms * 32);
  finish_kernel<<<static_cast<unsigned>(finish_blocks), kBlockThreads, 0,
                  current_stream().handle()>>>(op, g, partial, splits, dst);
  check(cudaGetLastError(), "launching a reduction kernel");
}

}  // namespace

void sum_kernel(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out, bool mean,
                const char* name) {
  constexpr uint32_t kTypes = dtypes::kAllTypes | dtypes::kBoolType | dtypes::kReducedFloatingTypes;
  SOPS_DISPATCH_TYPES(kTypes, out.scalar_type(), name, [&] {
    const ReduceGeometry g = make_geometry(self, mask, out, keepdim, /*sort_reduced=*/true);
    const SumOp<scalar_t> op{self.scalar_type(), mean ? static_cast<double>(g.red_numel) : 1.0};
    launch_reduction(op, g, self, out);
  });
}

void minmax_kernel(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out, bool max,
                   const char* name) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(self.scalar_type(), name, [&] {
    const ReduceGeometry g = make_geometry(self, mask, out, keepdim, /*sort_reduced=*/true);
    if (max) return launch_reduction(MinMaxOp<scalar_t, true>{}, g, self, out);
    launch_reduction(MinMaxOp<scalar_t, false>{}, g, self, out);
  });
}

void any_kernel(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(self.scalar_type(), "any", [&] {
    const ReduceGeometry g = make_geometry(self, mask, out, keepdim, /*sort_reduced=*/true);
    launch_reduction(AnyOp<scalar_t>{}, g, self, out);
  });
}

void argmax_kernel(const Tensor& self, int64_t dim, bool flatten, bool keepdim, const Tensor& out) {
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "argmax", [&] {
    // Over one dimension, or over every one (the row-major flattened tensor: out is 0-dim
    // or all ones, and no kept dimension reaches its strides).
    const uint64_t all = self.dim() >= 64 ? ~uint64_t{0} : (uint64_t{1} << self.dim()) - 1;
    const uint64_t mask = flatten ? all : self.dim() > 0 ? uint64_t{1} << dim : 0;
    const ReduceGeometry g = make_geometry(self, mask, out, keepdim, /*sort_reduced=*/false);
    launch_reduction(ArgmaxOp<scalar_t>{}, g, self, out);
  });
}

}  // namespace sops::cuda
