// add, sub, mul and div on CUDA: the CPU kernels' arithmetic (ops/util/scalar_math.h)
// run by gpu_kernel. Functors, not __device__ lambdas: the dtype dispatch's bodies are
// generic lambdas, which cannot hold extended lambdas.
#include <cmath>

#include "backends/cuda/kernels/binary_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "ops/util/scalar_checks.h"
#include "ops/util/scalar_math.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

using aten::math::div_floor_floating;
using aten::math::div_floor_integer;
using aten::math::div_trunc_integer;
using aten::math::wrapping_add;
using aten::math::wrapping_mul;

struct BoolAdd {  // booleans add as "or"
  bool alpha;
  __device__ bool operator()(bool x, bool y) const { return x || (alpha && y); }
};

template <typename T>
struct Add {  // x + alpha * y, wrapping for integers
  T alpha;
  __device__ T operator()(T x, T y) const { return wrapping_add(x, wrapping_mul(alpha, y)); }
};

template <typename T>
struct Mul {
  __device__ T operator()(T x, T y) const { return wrapping_mul(x, y); }
};

template <typename T>
struct Div {
  __device__ T operator()(T x, T y) const { return x / y; }
};

template <typename T>
struct DivTrunc {
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      return div_trunc_integer(x, y);
    } else {
      return std::trunc(x / y);
    }
  }
};

template <typename T>
struct DivFloor {
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      return div_floor_integer(x, y);
    } else {
      return div_floor_floating(x, y);
    }
  }
};

}  // namespace

void add_kernel(const TensorIteratorBase& iter, const Scalar& alpha) {
  if (iter.common_dtype() == ScalarType::Bool) {
    gpu_kernel(iter, BoolAdd{alpha.to_unchecked<bool>()});
    return;
  }
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "add", [&] {
    gpu_kernel(iter, Add<scalar_t>{aten::ops_util::scalar_to<scalar_t>(alpha)});
  });
}

void mul_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "mul",
                                   [&] { gpu_kernel(iter, Mul<scalar_t>{}); });
}

void div_true_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "div",
                               [&] { gpu_kernel(iter, Div<scalar_t>{}); });
}

void div_rounding_kernel(const TensorIteratorBase& iter, bool floor) {
  const ScalarType dtype = iter.common_dtype();
  constexpr uint32_t kTypes = dtypes::kFloatingTypes | dtypes::kIntegralTypes;
  SOPS_DISPATCH_TYPES(kTypes, dtype, "div", [&] {
    if (floor) {
      gpu_kernel(iter, DivFloor<scalar_t>{});
    } else {
      gpu_kernel(iter, DivTrunc<scalar_t>{});
    }
  });
}

}  // namespace sops::cuda
