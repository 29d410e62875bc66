// _softmax and _log_softmax on CUDA: the CPU kernels' arithmetic (backends/cpu/kernels/softmax.cpp)
// for float32 and float64, accumulating in the element type as the CPU does.
//
// Design. Every position of the dimensions other than `dim` is a row of `n` elements. The
// host merges those dimensions where they are contiguous with each other (at most 16,
// innermost first, strides in elements, for input and output alike). Blocks of 256
// threads are `rows` groups of `group` threads; a group owns a row: its threads stride
// over the row for the maximum (NaN propagates), a shared-memory tree combines them, then
// the same for the sum of exp(x - max), then each writes exp(x - max) * (1 / sum), or
// x - (max + log(sum)). `group` is 1 (a thread per row) when the row is strided in memory
// and there are rows enough to fill the device: neighbouring threads then read
// neighbouring elements. Input and output are read and written through their own strides.
#include <cuda_runtime.h>
#include <cuda/std/limits>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "backends/cuda/kernels/loops.cuh"  // detail::sm_count
#include "backends/cuda/kernels/softmax_kernels.h"
#include "backends/cuda/runtime/cuda_check.h"
#include "backends/cuda/runtime/cuda_stream.h"
#include "runtime/error.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

constexpr int kMaxRowDims = 16;
constexpr int kBlockThreads = 256;

struct SoftmaxGeometry {
  int ndim = 0;  // row dimensions, innermost first; strides in elements
  int64_t sizes[kMaxRowDims] = {};
  int64_t in[kMaxRowDims] = {};
  int64_t out[kMaxRowDims] = {};
  int64_t rows = 1;
  int64_t n = 1;          // elements per row (the size of `dim`)
  int64_t in_stride = 1;  // along `dim`
  int64_t out_stride = 1;
};

SoftmaxGeometry make_geometry(const Tensor& self, int64_t dim, const Tensor& out) {
  struct Dim {
    int64_t size, in, out;
  };
  SoftmaxGeometry g;
  std::vector<Dim> dims;  // outermost first, merged
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == dim) {
      g.n = self.size(d);
      g.in_stride = self.stride(d);
      g.out_stride = out.stride(d);
      continue;
    }
    const Dim k{self.size(d), self.stride(d), out.stride(d)};
    g.rows *= k.size;
    if (k.size == 1) continue;
    if (!dims.empty() && dims.back().in == k.in * k.size && dims.back().out == k.out * k.size) {
      dims.back() = {dims.back().size * k.size, k.in, k.out};
    } else {
      dims.push_back(k);
    }
  }
  SOPS_CHECK(dims.size() <= kMaxRowDims, "CUDA softmax takes at most ", kMaxRowDims,
             " dimensions besides dim after merging, got ", dims.size());
  g.ndim = static_cast<int>(dims.size());
  for (int i = 0; i < g.ndim; ++i) {
    const Dim& k = dims[dims.size() - 1 - static_cast<std::size_t>(i)];
    g.sizes[i] = k.size;
    g.in[i] = k.in;
    g.out[i] = k.out;
  }
  return g;
}

// NaN-propagating maximum, as the CPU's max_nan.
template <typename T>
struct MaxNan {
  __device__ T operator()(T a, T b) const { return (a > b || a != a) ? a : b; }
};

template <typename T>
struct Plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};

// The combination of v over the threads of this thread's group (threadIdx.y), in every
// thread of the group. Every thread of the block calls it: it synchronizes the block.
template <typename T, typename F>
__device__ T group_reduce(T* buf, T v, F f) {
  const int group = static_cast<int>(blockDim.x);
  if (group == 1) return v;
  const int x = static_cast<int>(threadIdx.x);
  const int tid = static_cast<int>(threadIdx.y) * group + x;
  buf[tid] = v;
  __syncthreads();
  for (int s = group / 2; s > 0; s /= 2) {
    if (x < s) buf[tid] = f(buf[tid], buf[tid + s]);
    __syncthreads();
  }
  const T result = buf[tid - x];
  __syncthreads();  // buf is written again by the next call
  return result;
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kBlockThreads)
    softmax_rows_kernel(SoftmaxGeometry g, const T* in, T* out) {
  __shared__ T buf[kBlockThreads];
  const int64_t group = blockDim.x;
  const int64_t rows = blockDim.y;
  const int64_t x = threadIdx.x;
  // The same trip count for every thread of the block: they meet at __syncthreads.
  for (int64_t first = static_cast<int64_t>(blockIdx.x) * rows; first < g.rows;
       first += static_cast<int64_t>(gridDim.x) * rows) {
    const int64_t row = first + threadIdx.y;
    const bool active = row < g.rows;
    int64_t in_off = 0, out_off = 0;
    if (active) {
      int64_t rest = row;
      for (int d = 0; d < g.ndim; ++d) {
        const int64_t i = rest % g.sizes[d];
        rest /= g.sizes[d];
        in_off += i * g.in[d];
        out_off += i * g.out[d];
      }
    }
    const T* src = in + in_off;
    T* dst = out + out_off;
    T m = -::cuda::std::numeric_limits<T>::infinity();
    if (active) {
      for (int64_t j = x; j < g.n; j += group) m = MaxNan<T>()(src[j * g.in_stride], m);
    }
    m = group_reduce(buf, m, MaxNan<T>());
    T sum = T(0);
    if (active) {
      for (int64_t j = x; j < g.n; j += group) sum += std::exp(src[j * g.in_stride] - m);
    }
    sum = group_reduce(buf, sum, Plus<T>());
    if (!active) continue;
    if constexpr (kLog) {
      const T shift = m + std::log(sum);
      for (int64_t j = x; j < g.n; j += group) dst[j * g.out_stride] = src[j * g.in_stride] - shift;
    } else {
      const T scale = T(1) / sum;
      for (int64_t j = x; j < g.n; j += group) {
        dst[j * g.out_stride] = std::exp(src[j * g.in_stride] - m) * scale;
      }
    }
  }
}

template <typename T, bool kLog>
void launch_softmax(const SoftmaxGeometry& g, const Tensor& self, const Tensor& out) {
  const int64_t sms = detail::sm_count();
  // A strided row (softmax over an outer dimension) with rows enough: a thread per row.
  int group = 1;
  if (g.in_stride == 1 || g.rows < sms * 16) {
    while (group < kBlockThreads && group < g.n) group *= 2;
  }
  const int rows = kBlockThreads / group;
  const int64_t blocks = (g.rows + rows - 1) / rows;
  const auto grid = static_cast<unsigned>(std::min(blocks, sms * 32));
  softmax_rows_kernel<T, kLog>
      <<<grid, dim3(static_cast<unsigned>(group), static_cast<unsigned>(rows)), 0,
         current_stream().handle()>>>(g, self.const_data_ptr<T>(), out.data_ptr<T>());
  check(cudaGetLastError(), "launching a softmax kernel");
}

}  // namespace

void softmax_kernel(const Tensor& self, int64_t dim, const Tensor& out, bool log) {
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), log ? "log_softmax" : "softmax", [&] {
    if (self.numel() == 0) return;
    const SoftmaxGeometry g = make_geometry(self, dim, out);
    if (log) {
      launch_softmax<scalar_t, true>(g, self, out);
    } else {
      launch_softmax<scalar_t, false>(g, self, out);
    }
  });
}

}  // namespace sops::cuda
