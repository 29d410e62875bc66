// native_layer_norm on CUDA: one block per row (grid-stride over the rows), two passes as
// the CPU kernel (backends/cpu/normalization.cpp): the row's sum gives the mean, the sum
// of squared deviations from it the biased variance, both accumulated in the element type
// (float for float32, double for float64) by per-thread partial sums, then warp shuffles
// and one shared-memory step; a third pass writes (x * rstd - mean * rstd) * w + b.
// Operands of other strides are first copied to contiguous tensors (as the CPU does).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backends/cuda/copy_fill_kernels.h"
#include "backends/cuda/loops.cuh"
#include "backends/cuda/normalization_kernels.h"
#include "runtime/tensor_iterator.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

constexpr int kWarp = 32;
constexpr int kMaxThreads = 256;
constexpr int kMaxWarps = kMaxThreads / kWarp;

// The sum of v over the block (blockDim.x a multiple of 32, at most kMaxThreads), returned
// to every thread. `shared` holds kMaxWarps + 1 values; every thread must call this.
template <typename T>
__device__ __forceinline__ T block_sum(T v, T* shared) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  const int lane = static_cast<int>(threadIdx.x) % kWarp;
  const int warp = static_cast<int>(threadIdx.x) / kWarp;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x) / kWarp ? shared[lane] : T(0);
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    if (lane == 0) shared[kMaxWarps] = v;
  }
  __syncthreads();
  const T total = shared[kMaxWarps];
  __syncthreads();  // before `shared` is written again
  return total;
}

template <typename T>
struct LayerNormParams {
  const T* x;
  const T* gamma;  // nullptr: 1
  const T* beta;   // nullptr: 0
  T* y;
  T* mean;
  T* rstd;
  int64_t rows;
  int64_t n;
  T eps;
  T nan;  // the variance of an empty row
};

template <typename T>
__global__ void __launch_bounds__(kMaxThreads) layer_norm_rows(LayerNormParams<T> p) {
  __shared__ T shared[kMaxWarps + 1];
  const int64_t tid = threadIdx.x;
  const int64_t threads = blockDim.x;
  // The row loop's bounds are the same for the whole block: all of it reaches the barriers.
  for (int64_t r = blockIdx.x; r < p.rows; r += gridDim.x) {
    const T* x = p.x + r * p.n;
    T s = T(0);
    for (int64_t j = tid; j < p.n; j += threads) s += x[j];
    s = block_sum(s, shared);
    const T m = p.n == 0 ? T(0) : s / static_cast<T>(p.n);
    T q = T(0);
    for (int64_t j = tid; j < p.n; j += threads) {
      const T d = x[j] - m;
      q += d * d;
    }
    q = block_sum(q, shared);
    const T var = p.n == 0 ? p.nan : q / static_cast<T>(p.n);
    // std::max(var, 0) as the CPU: a NaN variance stays NaN.
    const T rs = T(1) / std::sqrt((var < T(0) ? T(0) : var) + p.eps);
    if (tid == 0) {
      p.mean[r] = m;
      p.rstd[r] = rs;
    }
    const T shift = -rs * m;
    T* y = p.y + r * p.n;
    for (int64_t j = tid; j < p.n; j += threads) {
      T v = x[j] * rs + shift;
      if (p.gamma != nullptr) v = v * p.gamma[j];
      if (p.beta != nullptr) v = v + p.beta[j];
      y[j] = v;
    }
  }
}

template <typename T>
const T* data_or_null(const Tensor& t) {
  return t.defined() ? t.data_ptr<T>() : nullptr;
}

template <typename T>
void launch_layer_norm(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& out,
                       const Tensor& mean, const Tensor& rstd, int64_t rows, int64_t n,
                       double eps) {
  LayerNormParams<T> p{};
  p.x = x.data_ptr<T>();
  p.gamma = data_or_null<T>(w);
  p.beta = data_or_null<T>(b);
  p.y = out.data_ptr<T>();
  p.mean = mean.data_ptr<T>();
  p.rstd = rstd.data_ptr<T>();
  p.rows = rows;
  p.n = n;
  p.eps = static_cast<T>(eps);
  p.nan = std::numeric_limits<T>::quiet_NaN();
  // Threads: a multiple of a warp, no more than the row has elements (at least one warp).
  const int64_t warps = std::min<int64_t>(kMaxWarps, std::max<int64_t>(1, (n + kWarp - 1) / kWarp));
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(rows, int64_t{1} << 16));
  layer_norm_rows<T><<<grid, static_cast<unsigned>(warps * kWarp), 0,
                            current_stream().handle()>>>(p);
  check(cudaGetLastError(), "launching the layer norm kernel");
}

}  // namespace

void layer_norm_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias,
                       const Tensor& out, const Tensor& mean, const Tensor& rstd, int64_t rows,
                       int64_t n, double eps) {
  if (rows <= 0) return;
  const Tensor x = contiguous_on_device(input);
  const Tensor w = contiguous_on_device(weight);
  const Tensor b = contiguous_on_device(bias);
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "LayerNormKernelImpl", [&] {
    launch_layer_norm<scalar_t>(x, w, b, out, mean, rstd, rows, n, eps);
  });
}

}  // namespace sops::cuda
