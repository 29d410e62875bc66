// floor, ceil, round, round.decimals, trunc, sign and bitwise_not on CUDA: the CPU
// kernels' formulas (backends/cpu/kernels/unary_ops.cpp, ops/util/scalar_math.h) as
// functors run by gpu_kernel. Functors, not __device__ lambdas: the dtype dispatch's
// bodies are generic lambdas, which cannot hold extended lambdas.
#include <cmath>
#include <type_traits>

#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/rounding_kernels.h"
#include "ops/util/scalar_math.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

// One functor per rounding of a float or double `x`; an integral x is its own rounding.
#define SOPS_CUDA_ROUNDING_FUNCTOR(Name, fn)       \
  template <typename T>                            \
  struct Name {                                    \
    __device__ T operator()(T x) const {           \
      if constexpr (std::is_floating_point_v<T>) { \
        return fn(x);                              \
      } else {                                     \
        return x;                                  \
      }                                            \
    }                                              \
  };

SOPS_CUDA_ROUNDING_FUNCTOR(Floor, std::floor)
SOPS_CUDA_ROUNDING_FUNCTOR(Ceil, std::ceil)
// std::nearbyint in the default rounding mode: half to even.
SOPS_CUDA_ROUNDING_FUNCTOR(Round, std::nearbyint)
SOPS_CUDA_ROUNDING_FUNCTOR(Trunc, std::trunc)

#undef SOPS_CUDA_ROUNDING_FUNCTOR

template <typename T>
struct RoundDecimals {
  T ten_pow;  // 10^|decimals|
  bool negative;
  __device__ T operator()(T x) const {
    return aten::math::round_decimals_value(x, ten_pow, negative);
  }
};

template <typename T>
struct Sign {
  __device__ T operator()(T x) const { return aten::math::sign_value(x); }
};

template <typename T>
struct BitwiseNot {
  __device__ T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !x;
    } else {
      return static_cast<T>(~x);
    }
  }
};

}  // namespace

void rounding_kernel(const TensorIteratorBase& iter, RoundingOp op, const char* name) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), name, [&] {
    switch (op) {
      case RoundingOp::kFloor:
        gpu_kernel(iter, Floor<scalar_t>{});
        break;
      case RoundingOp::kCeil:
        gpu_kernel(iter, Ceil<scalar_t>{});
        break;
      case RoundingOp::kRound:
        gpu_kernel(iter, Round<scalar_t>{});
        break;
      case RoundingOp::kTrunc:
        gpu_kernel(iter, Trunc<scalar_t>{});
        break;
    }
  });
}

void round_decimals_kernel(const TensorIteratorBase& iter, int64_t decimals) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "round", [&] {
    const bool negative = decimals < 0;
    // 10^|decimals| taken in double, then rounded to scalar_t, as the CPU kernel takes it.
    const auto ten_pow =
        static_cast<scalar_t>(std::pow(10.0, static_cast<double>(negative ? -decimals : decimals)));
    gpu_kernel(iter, RoundDecimals<scalar_t>{ten_pow, negative});
  });
}

void sign_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "sign",
                                   [&] { gpu_kernel(iter, Sign<scalar_t>{}); });
}

void bitwise_not_kernel(const TensorIteratorBase& iter) {
  constexpr uint32_t kTypes = dtypes::kIntegralTypes | dtypes::kBoolType;
  SOPS_DISPATCH_TYPES(kTypes, iter.common_dtype(), "bitwise_not",
                      [&] { gpu_kernel(iter, BitwiseNot<scalar_t>{}); });
}

}  // namespace sops::cuda
