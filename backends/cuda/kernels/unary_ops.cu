// The element-wise unary math operators on CUDA (the yaml's "unary math" section): the CPU
// kernels' formulas (backends/cpu/kernels/unary_ops.cpp, ops/util/scalar_math.h) as functors run
// by gpu_kernel, with CUDA's math functions. Functors, not __device__ lambdas: the dtype
// dispatch's bodies are generic lambdas, which cannot hold extended lambdas.
#include <cmath>

#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/unary_kernels.h"
#include "ops/util/scalar_checks.h"
#include "ops/util/scalar_math.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

using aten::math::abs_value;
using aten::math::negate;
using aten::math::powi;

template <typename T>
struct Neg {
  __device__ T operator()(T x) const { return negate(x); }
};

template <typename T>
struct Abs {
  __device__ T operator()(T x) const { return abs_value(x); }
};

// One functor per formula of `x` (of type T): float and double, but for Identity.
#define SOPS_CUDA_UNARY_FUNCTOR(Name, expr)             \
  template <typename T>                                 \
  struct Name {                                         \
    __device__ T operator()(T x) const { return expr; } \
  };

SOPS_CUDA_UNARY_FUNCTOR(Exp, std::exp(x))
SOPS_CUDA_UNARY_FUNCTOR(Log, std::log(x))
SOPS_CUDA_UNARY_FUNCTOR(Sqrt, std::sqrt(x))
// 1 / sqrt(x) (IEEE division and square root), as the CPU computes it, not rsqrt's
// approximation.
SOPS_CUDA_UNARY_FUNCTOR(Rsqrt, T(1) / std::sqrt(x))
SOPS_CUDA_UNARY_FUNCTOR(Sigmoid, T(1) / (T(1) + std::exp(-x)))
SOPS_CUDA_UNARY_FUNCTOR(Tanh, std::tanh(x))
SOPS_CUDA_UNARY_FUNCTOR(Sin, std::sin(x))
SOPS_CUDA_UNARY_FUNCTOR(Cos, std::cos(x))
SOPS_CUDA_UNARY_FUNCTOR(Tan, std::tan(x))
SOPS_CUDA_UNARY_FUNCTOR(Asin, std::asin(x))
SOPS_CUDA_UNARY_FUNCTOR(Acos, std::acos(x))
SOPS_CUDA_UNARY_FUNCTOR(Atan, std::atan(x))
SOPS_CUDA_UNARY_FUNCTOR(Sinh, std::sinh(x))
SOPS_CUDA_UNARY_FUNCTOR(Cosh, std::cosh(x))
SOPS_CUDA_UNARY_FUNCTOR(Asinh, std::asinh(x))
SOPS_CUDA_UNARY_FUNCTOR(Acosh, std::acosh(x))
SOPS_CUDA_UNARY_FUNCTOR(Atanh, std::atanh(x))
SOPS_CUDA_UNARY_FUNCTOR(Erf, std::erf(x))
SOPS_CUDA_UNARY_FUNCTOR(Expm1, std::expm1(x))
SOPS_CUDA_UNARY_FUNCTOR(Log1p, std::log1p(x))
SOPS_CUDA_UNARY_FUNCTOR(Log2, std::log2(x))
SOPS_CUDA_UNARY_FUNCTOR(Log10, std::log10(x))
// pow's special exponents.
SOPS_CUDA_UNARY_FUNCTOR(Reciprocal, T(1) / x)
SOPS_CUDA_UNARY_FUNCTOR(Square, x* x)
SOPS_CUDA_UNARY_FUNCTOR(Cube, x * x * x)
SOPS_CUDA_UNARY_FUNCTOR(InverseSquare, T(1) / (x * x))
SOPS_CUDA_UNARY_FUNCTOR(Identity, x)

#undef SOPS_CUDA_UNARY_FUNCTOR

// Exponent 0: 1 whatever x is (NaN included).
template <typename T>
struct One {
  __device__ T operator()(T /*x*/) const { return T(1); }
};

// pow in double for any other exponent, rounded to T.
template <typename T>
struct PowDouble {
  double exponent;
  __device__ T operator()(T x) const {
    return static_cast<T>(std::pow(static_cast<double>(x), exponent));
  }
};

template <typename T>
struct PowInteger {
  T exponent;
  __device__ T operator()(T x) const { return powi(x, exponent); }
};

}  // namespace

void neg_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "neg", [&] { gpu_kernel(iter, Neg<scalar_t>{}); });
}

void abs_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "abs", [&] { gpu_kernel(iter, Abs<scalar_t>{}); });
}

#define SOPS_CUDA_UNARY_FLOAT_KERNEL(name, Functor)                               \
  void name##_kernel(const TensorIteratorBase& iter) {                            \
    SOPS_DISPATCH_FLOATING_TYPES(iter.common_dtype(), #name,                      \
                                 [&] { gpu_kernel(iter, Functor<scalar_t>{}); }); \
  }

SOPS_CUDA_UNARY_FLOAT_KERNEL(exp, Exp)
SOPS_CUDA_UNARY_FLOAT_KERNEL(log, Log)
SOPS_CUDA_UNARY_FLOAT_KERNEL(sqrt, Sqrt)
SOPS_CUDA_UNARY_FLOAT_KERNEL(rsqrt, Rsqrt)
SOPS_CUDA_UNARY_FLOAT_KERNEL(sigmoid, Sigmoid)
SOPS_CUDA_UNARY_FLOAT_KERNEL(tanh, Tanh)
SOPS_CUDA_UNARY_FLOAT_KERNEL(sin, Sin)
SOPS_CUDA_UNARY_FLOAT_KERNEL(cos, Cos)
SOPS_CUDA_UNARY_FLOAT_KERNEL(tan, Tan)
SOPS_CUDA_UNARY_FLOAT_KERNEL(asin, Asin)
SOPS_CUDA_UNARY_FLOAT_KERNEL(acos, Acos)
SOPS_CUDA_UNARY_FLOAT_KERNEL(atan, Atan)
SOPS_CUDA_UNARY_FLOAT_KERNEL(sinh, Sinh)
SOPS_CUDA_UNARY_FLOAT_KERNEL(cosh, Cosh)
SOPS_CUDA_UNARY_FLOAT_KERNEL(asinh, Asinh)
SOPS_CUDA_UNARY_FLOAT_KERNEL(acosh, Acosh)
SOPS_CUDA_UNARY_FLOAT_KERNEL(atanh, Atanh)
SOPS_CUDA_UNARY_FLOAT_KERNEL(erf, Erf)
SOPS_CUDA_UNARY_FLOAT_KERNEL(expm1, Expm1)
SOPS_CUDA_UNARY_FLOAT_KERNEL(log1p, Log1p)
SOPS_CUDA_UNARY_FLOAT_KERNEL(log2, Log2)
SOPS_CUDA_UNARY_FLOAT_KERNEL(log10, Log10)
SOPS_CUDA_UNARY_FLOAT_KERNEL(reciprocal, Reciprocal)

#undef SOPS_CUDA_UNARY_FLOAT_KERNEL

void pow_fill_one_kernel(const TensorIteratorBase& iter, ScalarType dtype) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(dtype, "pow", [&] { gpu_kernel(iter, One<scalar_t>{}); });
}

void pow_identity_kernel(const TensorIteratorBase& iter, ScalarType dtype) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(dtype, "pow", [&] { gpu_kernel(iter, Identity<scalar_t>{}); });
}

void pow_floating_kernel(const TensorIteratorBase& iter, ScalarType dtype, double exponent) {
  SOPS_DISPATCH_FLOATING_TYPES(dtype, "pow", [&] {
    if (exponent == 0.5) {
      gpu_kernel(iter, Sqrt<scalar_t>{});
    } else if (exponent == -0.5) {
      gpu_kernel(iter, Rsqrt<scalar_t>{});
    } else if (exponent == -1.0) {
      gpu_kernel(iter, Reciprocal<scalar_t>{});
    } else if (exponent == 2.0) {
      gpu_kernel(iter, Square<scalar_t>{});
    } else if (exponent == 3.0) {
      gpu_kernel(iter, Cube<scalar_t>{});
    } else if (exponent == -2.0) {
      gpu_kernel(iter, InverseSquare<scalar_t>{});
    } else {
      gpu_kernel(iter, PowDouble<scalar_t>{exponent});
    }
  });
}

void pow_integral_kernel(const TensorIteratorBase& iter, ScalarType dtype, const Scalar& exponent) {
  SOPS_DISPATCH_INTEGRAL_TYPES(dtype, "pow", [&] {
    gpu_kernel(iter, PowInteger<scalar_t>{aten::ops_util::scalar_to<scalar_t>(exponent)});
  });
}

}  // namespace sops::cuda
