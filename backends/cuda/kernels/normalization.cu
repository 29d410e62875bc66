// native_layer_norm and _native_batch_norm_legit_no_training on CUDA.
//
// Layer norm: one block per row (grid-stride over the rows), two passes as
// the CPU kernel (backends/cpu/kernels/normalization.cpp): the row's sum gives the mean, the sum
// of squared deviations from it the biased variance, both accumulated in the element type
// (float for float32, double for float64) by per-thread partial sums, then warp shuffles
// and one shared-memory step; a third pass writes (x * rstd - mean * rstd) * w + b.
// Operands of other strides are first copied to contiguous tensors (as the CPU does).
//
// Batch norm (inference): a per-channel affine map. One small kernel computes each
// channel's alpha and beta from the running statistics as the CPU does, then the
// element-wise launcher (loops.cuh) writes out = x * alpha + beta over input's and out's
// own strides (channels-last included), alpha and beta broadcast along the channels.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/normalization_kernels.h"
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

// x * s rounded on its own, never fused with the add after it: as the CPU (and PyTorch's
// CPU) rounds x * rstd before adding -rstd * mean, so a row of equal values normalizes to
// exactly 0 (an FMA would leave the rounding error of rstd * mean, ~1e-4 after rstd).
__device__ inline float mul_rounded(float x, float s) { return __fmul_rn(x, s); }
__device__ inline double mul_rounded(double x, double s) { return __dmul_rn(x, s); }

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
      T v = mul_rounded(x[j], rs) + shift;
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
  layer_norm_rows<T>
      <<<grid, static_cast<unsigned>(warps * kWarp), 0, current_stream().handle()>>>(p);
  check(cudaGetLastError(), "launching the layer norm kernel");
}

// ---------------------------------------------------------------- batch norm (inference)

// One per-channel operand: element c at data[c * stride]; data == nullptr: absent.
template <typename T>
struct PerChannel {
  const T* data;
  int64_t stride;
  __device__ T at(int64_t c, T absent) const { return data != nullptr ? data[c * stride] : absent; }
};

template <typename T>
PerChannel<T> per_channel(const Tensor& t) {
  return {data_or_null<T>(t), t.defined() ? t.stride(0) : 0};
}

template <typename T>
struct BatchNormCoefficients {
  PerChannel<T> mean, var, weight, bias;
  int64_t channels;
  T eps;
  T* alpha;
  T* beta;
};

// alpha[c] = weight[c] / sqrt(var[c] + eps), beta[c] = bias[c] - mean[c] * alpha[c], as the
// CPU computes them (1 / sqrt, then the product), one thread per channel.
template <typename T>
__global__ void batch_norm_coefficients(BatchNormCoefficients<T> p) {
  for (int64_t c = first_index(); c < p.channels; c += index_step()) {
    const T invstd = T(1) / std::sqrt(p.var.at(c, T(0)) + p.eps);
    const T alpha = invstd * p.weight.at(c, T(1));  // (times 1 without a weight: exact)
    p.alpha[c] = alpha;
    p.beta[c] = p.bias.at(c, T(0)) - p.mean.at(c, T(0)) * alpha;
  }
}

template <typename T>
struct Affine {  // x * alpha + beta
  __device__ T operator()(T x, T alpha, T beta) const { return x * alpha + beta; }
};

// Row `row` of coefficients ([2, channels], contiguous) broadcast to `sizes` along dimension 1.
Tensor along_channels(const Tensor& coefficients, int64_t row, IntArrayRef sizes) {
  DimVector strides(sizes.size(), 0);
  strides[1] = 1;
  return coefficients.as_strided(sizes, strides, row * coefficients.size(1));
}

template <typename T>
void launch_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                       const Tensor& running_mean, const Tensor& running_var, double eps,
                       const Tensor& out) {
  const int64_t channels = input.size(1);
  const Tensor coefficients = sops::empty({2, channels}, input.options());  // alpha, beta
  BatchNormCoefficients<T> p{};
  p.mean = per_channel<T>(running_mean);
  p.var = per_channel<T>(running_var);
  p.weight = per_channel<T>(weight);
  p.bias = per_channel<T>(bias);
  p.channels = channels;
  p.eps = static_cast<T>(eps);
  p.alpha = coefficients.data_ptr<T>();
  p.beta = p.alpha + channels;
  launch(batch_norm_coefficients<T>, channels, "launching the batch norm coefficients kernel", p);
  const Tensor alpha = along_channels(coefficients, 0, input.sizes());
  const Tensor beta = along_channels(coefficients, 1, input.sizes());
  TensorIteratorConfig config;
  config.add_output(out).add_input(input).add_input(alpha).add_input(beta).resize_outputs(false);
  TensorIterator iter(config);
  gpu_kernel(iter, Affine<T>{});
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

void batch_norm_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias,
                       const Tensor& running_mean, const Tensor& running_var, double eps,
                       const Tensor& out) {
  if (input.numel() == 0) return;
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "batch_norm", [&] {
    launch_batch_norm<scalar_t>(input, weight, bias, running_mean, running_var, eps, out);
  });
}

}  // namespace sops::cuda
