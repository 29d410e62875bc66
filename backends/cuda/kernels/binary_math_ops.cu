// The element-wise binary math of core ATen on CUDA: the CPU kernels' formulas
// (backends/cpu/kernels/binary_math_ops.cpp, ops/util/scalar_math.h) as functors run by
// gpu_kernel. Functors, not __device__ lambdas: the dtype dispatch's bodies are generic
// lambdas, which cannot hold extended lambdas.
#include <cmath>
#include <type_traits>

#include "backends/cuda/kernels/binary_math_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "ops/util/scalar_math.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

namespace math = aten::math;

// a & b, a | b, a ^ b for integers; "and", "or" and "differ" for bool.
template <typename T>
struct BitwiseAnd {
  __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return static_cast<T>(a & b);
    }
  }
};

template <typename T>
struct BitwiseOr {
  __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else {
      return static_cast<T>(a | b);
    }
  }
};

template <typename T>
struct BitwiseXor {
  __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a != b;
    } else {
      return static_cast<T>(a ^ b);
    }
  }
};

// The inputs read as the common dtype first (a 0-dim cpu operand of a wider dtype is
// converted to it, as the CPU's iterator converts it), then tested against 0.
template <typename T>
struct LogicalXor {
  __device__ bool operator()(T a, T b) const { return convert<bool>(a) != convert<bool>(b); }
};

template <typename T>
struct Maximum {
  __device__ T operator()(T a, T b) const { return math::maximum_value(a, b); }
};

template <typename T>
struct Minimum {
  __device__ T operator()(T a, T b) const { return math::minimum_value(a, b); }
};

// C's fmod: the remainder has the dividend's sign.
template <typename T>
struct Fmod {
  __device__ T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return math::fmod_integer(a, b);
    } else {
      return std::fmod(a, b);
    }
  }
};

// Python's %: the remainder has the divisor's sign.
template <typename T>
struct Remainder {
  __device__ T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return math::remainder_integer(a, b);
    } else {
      return math::remainder_floating(a, b);
    }
  }
};

template <typename T>
struct Atan2 {
  __device__ T operator()(T a, T b) const { return std::atan2(a, b); }
};

template <typename T>
struct Pow {
  __device__ T operator()(T base, T exp) const {
    if constexpr (std::is_integral_v<T>) {
      return math::pow_integer(base, exp);
    } else {
      return std::pow(base, exp);
    }
  }
};

template <typename T>
struct ClampTensor {
  __device__ T operator()(T x, T lo, T hi) const { return math::clamp_value(x, lo, hi); }
};

}  // namespace

void bitwise_kernel(const TensorIteratorBase& iter, BitwiseOp op) {
  constexpr uint32_t kTypes = dtypes::kIntegralTypes | dtypes::kBoolType;
  SOPS_DISPATCH_TYPES(kTypes, iter.common_dtype(), "bitwise", [&] {
    switch (op) {
      case BitwiseOp::kAnd:
        gpu_kernel(iter, BitwiseAnd<scalar_t>{});
        break;
      case BitwiseOp::kOr:
        gpu_kernel(iter, BitwiseOr<scalar_t>{});
        break;
      case BitwiseOp::kXor:
        gpu_kernel(iter, BitwiseXor<scalar_t>{});
        break;
    }
  });
}

void logical_xor_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_EVERY_TYPE(iter.common_dtype(), "logical_xor",
                           [&] { gpu_kernel(iter, LogicalXor<scalar_t>{}); });
}

void maximum_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "maximum",
                                   [&] { gpu_kernel(iter, Maximum<scalar_t>{}); });
}

void minimum_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "minimum",
                                   [&] { gpu_kernel(iter, Minimum<scalar_t>{}); });
}

void fmod_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "fmod", [&] { gpu_kernel(iter, Fmod<scalar_t>{}); });
}

void remainder_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "remainder",
                          [&] { gpu_kernel(iter, Remainder<scalar_t>{}); });
}

void atan2_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "atan2",
                               [&] { gpu_kernel(iter, Atan2<scalar_t>{}); });
}

void pow_tensor_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "pow", [&] { gpu_kernel(iter, Pow<scalar_t>{}); });
}

void clamp_tensor_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "clamp",
                          [&] { gpu_kernel(iter, ClampTensor<scalar_t>{}); });
}

}  // namespace sops::cuda
