// gelu, silu, hardsigmoid, hardswish, leaky_relu, clamp (hardtanh's too) and relu on CUDA:
// the CPU kernels' formulas (backends/cpu/kernels/activation_ops.cpp) as functors
// run by gpu_kernel, with CUDA's erf, tanh and exp. Functors, not __device__ lambdas: the
// dtype dispatch's bodies are generic lambdas, which cannot hold extended lambdas.
#include <cmath>
#include <limits>
#include <type_traits>

#include "backends/cuda/kernels/activation_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "ops/util/scalar_checks.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

using aten::ops_util::scalar_to;

// std::max and std::min (host-only constexpr functions) as the CPU calls them: the first
// argument when the comparison fails, so a NaN x stays NaN in max(x, lo) and min(x, hi).
template <typename T>
__device__ __forceinline__ T max_of(T a, T b) {
  return (a < b) ? b : a;
}
template <typename T>
__device__ __forceinline__ T min_of(T a, T b) {
  return (b < a) ? b : a;
}

// a * b rounded on its own, never fused with the addition that follows into an FMA (nvcc
// contracts by default), so that gelu's tanh formula rounds each step as the CPU's does.
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }

// x / 2 * (1 + erf(x / sqrt(2))).
template <typename T>
struct GeluErf {
  T alpha;  // 1 / sqrt(2)
  __device__ T operator()(T x) const { return x * T(0.5) * (T(1) + std::erf(x * alpha)); }
};

// x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))).
template <typename T>
struct GeluTanh {
  T beta;
  T kappa;
  __device__ T operator()(T x) const {
    const T inner = x + mul_rn(mul_rn(mul_rn(kappa, x), x), x);
    return T(0.5) * x * (T(1) + std::tanh(beta * inner));
  }
};

template <typename T>
struct Silu {
  __device__ T operator()(T x) const { return x / (T(1) + std::exp(-x)); }
};

// min(max(x + 3, 0), 6) / 6.
template <typename T>
struct Hardsigmoid {
  __device__ T operator()(T x) const { return min_of(max_of(x + T(3), T(0)), T(6)) / T(6); }
};

// x * min(max(x + 3, 0), 6) / 6.
template <typename T>
struct Hardswish {
  __device__ T operator()(T x) const { return x * min_of(max_of(x + T(3), T(0)), T(6)) / T(6); }
};

// x > 0 ? x : x * negative_slope (NaN and -0.0 take the second branch, unchanged).
template <typename T>
struct LeakyRelu {
  T slope;
  __device__ T operator()(T x) const { return x > T(0) ? x : x * slope; }
};

template <typename T>
struct Clamp {
  T lo;
  T hi;
  __device__ T operator()(T x) const { return min_of(max_of(x, lo), hi); }
};

template <typename T>
struct ClampMin {
  T lo;
  __device__ T operator()(T x) const { return max_of(x, lo); }
};

template <typename T>
struct ClampMax {
  T hi;
  __device__ T operator()(T x) const { return min_of(x, hi); }
};

template <typename T>
struct Fill {
  T value;
  __device__ T operator()(T /*x*/) const { return value; }
};

template <typename T>
struct Relu {
  __device__ T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) {
      return x;
    } else {
      return x < T(0) ? T(0) : x;  // NaN and -0.0 pass through
    }
  }
};

}  // namespace

void gelu_kernel(const TensorIteratorBase& iter, bool tanh_approximation) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "gelu", [&] {
    if (tanh_approximation) {
      const auto beta = static_cast<scalar_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const auto kappa = static_cast<scalar_t>(0.044715);
      gpu_kernel(iter, GeluTanh<scalar_t>{beta, kappa});
    } else {
      gpu_kernel(iter, GeluErf<scalar_t>{static_cast<scalar_t>(M_SQRT1_2)});
    }
  });
}

void silu_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "silu", [&] { gpu_kernel(iter, Silu<scalar_t>{}); });
}

void hardsigmoid_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "hardsigmoid",
                               [&] { gpu_kernel(iter, Hardsigmoid<scalar_t>{}); });
}

void hardswish_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "hardswish",
                               [&] { gpu_kernel(iter, Hardswish<scalar_t>{}); });
}

void leaky_relu_kernel(const TensorIteratorBase& iter, const Scalar& negative_slope) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "leaky_relu", [&] {
    gpu_kernel(iter, LeakyRelu<scalar_t>{scalar_to<scalar_t>(negative_slope)});
  });
}

void clamp_kernel(const TensorIteratorBase& iter, const Scalar& lo, const Scalar& hi) {
  SOPS_DISPATCH_ALL_TYPES(iter.dtype(0), "clamp", [&] {
    const scalar_t a = scalar_to<scalar_t>(lo);
    const scalar_t b = scalar_to<scalar_t>(hi);
    gpu_kernel(iter, Clamp<scalar_t>{a, b});
  });
}

void clamp_min_kernel(const TensorIteratorBase& iter, const Scalar& lo) {
  SOPS_DISPATCH_ALL_TYPES(iter.dtype(0), "clamp",
                          [&] { gpu_kernel(iter, ClampMin<scalar_t>{scalar_to<scalar_t>(lo)}); });
}

void clamp_max_kernel(const TensorIteratorBase& iter, const Scalar& hi) {
  SOPS_DISPATCH_ALL_TYPES(iter.dtype(0), "clamp",
                          [&] { gpu_kernel(iter, ClampMax<scalar_t>{scalar_to<scalar_t>(hi)}); });
}

void clamp_nan_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "clamp", [&] {
    gpu_kernel(iter, Fill<scalar_t>{std::numeric_limits<scalar_t>::quiet_NaN()});
  });
}

void relu_kernel(const TensorIteratorBase& iter, ScalarType dtype) {
  SOPS_DISPATCH_ALL_TYPES(dtype, "relu", [&] { gpu_kernel(iter, Relu<scalar_t>{}); });
}

}  // namespace sops::cuda
