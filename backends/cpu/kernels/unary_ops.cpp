// CPU kernels of the element-wise unary math operators (the yaml's "unary math" section),
// over the iterator their meta function (ops/meta/unary_ops.cpp) built.
// Floating results use the std:: functions (PyTorch's own scalar formulas); PyTorch's
// vectorized exp, log, tanh and pow differ from them in the last bits.
#include <cmath>

#include "aten/ops/abs_native.h"
#include "aten/ops/acos_native.h"
#include "aten/ops/acosh_native.h"
#include "aten/ops/asin_native.h"
#include "aten/ops/asinh_native.h"
#include "aten/ops/atan_native.h"
#include "aten/ops/atanh_native.h"
#include "aten/ops/bitwise_not_native.h"
#include "aten/ops/ceil_native.h"
#include "aten/ops/cos_native.h"
#include "aten/ops/cosh_native.h"
#include "aten/ops/erf_native.h"
#include "aten/ops/exp_native.h"
#include "aten/ops/expm1_native.h"
#include "aten/ops/floor_native.h"
#include "aten/ops/log10_native.h"
#include "aten/ops/log1p_native.h"
#include "aten/ops/log2_native.h"
#include "aten/ops/log_native.h"
#include "aten/ops/neg_native.h"
#include "aten/ops/pow_native.h"
#include "aten/ops/reciprocal_native.h"
#include "aten/ops/round_native.h"
#include "aten/ops/rsqrt_native.h"
#include "aten/ops/sigmoid_native.h"
#include "aten/ops/sign_native.h"
#include "aten/ops/sin_native.h"
#include "aten/ops/sinh_native.h"
#include "aten/ops/sqrt_native.h"
#include "aten/ops/tan_native.h"
#include "aten/ops/tanh_native.h"
#include "aten/ops/trunc_native.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/vec_math.h"

namespace sops::aten::native {
namespace {

using cpu_util::abs_value;
using cpu_util::negate;
using cpu_util::powi;
using cpu_util::scalar_to;

// PyTorch's Scalar::equal(double): a bool is never equal to a number.
bool scalar_equals(const Scalar& s, double v) {
  return !s.is_boolean() && s.to_unchecked<double>() == v;
}

}  // namespace

SOPS_IMPL_FUNC(neg_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  SOPS_DISPATCH_ALL_TYPES(common_dtype(), "neg", [&] {
    sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return negate(x); });
  });
}

SOPS_IMPL_FUNC(abs_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  cpu_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, "abs_cpu", "self");
  SOPS_DISPATCH_ALL_TYPES(common_dtype(), "abs", [&] {
    sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return abs_value(x); });
  });
}

// The floating ones: the common dtype is float32 or float64.
#define SOPS_UNARY_FLOAT_IMPL(name, expr)                                     \
  SOPS_IMPL_FUNC(name##_out)(const Tensor& /*self*/, const Tensor& /*out*/) { \
    SOPS_DISPATCH_FLOATING_TYPES(common_dtype(), #name, [&] {                 \
      sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return expr; });   \
    });                                                                       \
  }

// With a vector form `vexpr` of `v` (runtime/vec_math.h), for what the compiler cannot
// vectorize from the C library's scalar calls.
#define SOPS_UNARY_FLOAT_VEC_IMPL(name, expr, vexpr)                          \
  SOPS_IMPL_FUNC(name##_out)(const Tensor& /*self*/, const Tensor& /*out*/) { \
    SOPS_DISPATCH_FLOATING_TYPES(common_dtype(), #name, [&] {                 \
      using V = typename Vec32<scalar_t>::type;                               \
      sops::cpu_kernel_vec(                                                   \
          *this, [](scalar_t x) -> scalar_t { return expr; },                 \
          [](V v) SOPS_VEC_LAMBDA -> V { return vexpr; });                    \
    });                                                                       \
  }

SOPS_UNARY_FLOAT_VEC_IMPL(exp, std::exp(x), vec::exp(v))
SOPS_UNARY_FLOAT_IMPL(log, std::log(x))
SOPS_UNARY_FLOAT_IMPL(sqrt, std::sqrt(x))
SOPS_UNARY_FLOAT_IMPL(rsqrt, scalar_t(1) / std::sqrt(x))
SOPS_UNARY_FLOAT_VEC_IMPL(sin, std::sin(x), vec::sin(v))
SOPS_UNARY_FLOAT_VEC_IMPL(cos, std::cos(x), vec::cos(v))
SOPS_UNARY_FLOAT_IMPL(tan, std::tan(x))
SOPS_UNARY_FLOAT_IMPL(asin, std::asin(x))
SOPS_UNARY_FLOAT_IMPL(acos, std::acos(x))
SOPS_UNARY_FLOAT_IMPL(atan, std::atan(x))
SOPS_UNARY_FLOAT_IMPL(sinh, std::sinh(x))
SOPS_UNARY_FLOAT_IMPL(cosh, std::cosh(x))
SOPS_UNARY_FLOAT_IMPL(asinh, std::asinh(x))
SOPS_UNARY_FLOAT_IMPL(acosh, std::acosh(x))
SOPS_UNARY_FLOAT_IMPL(atanh, std::atanh(x))
SOPS_UNARY_FLOAT_IMPL(erf, std::erf(x))
SOPS_UNARY_FLOAT_IMPL(expm1, std::expm1(x))
SOPS_UNARY_FLOAT_IMPL(log1p, std::log1p(x))
SOPS_UNARY_FLOAT_IMPL(log2, std::log2(x))
SOPS_UNARY_FLOAT_IMPL(log10, std::log10(x))
SOPS_UNARY_FLOAT_VEC_IMPL(sigmoid, scalar_t(1) / (scalar_t(1) + std::exp(-x)), vec::sigmoid(v))
SOPS_UNARY_FLOAT_VEC_IMPL(tanh, std::tanh(x), vec::tanh(v))
SOPS_UNARY_FLOAT_IMPL(reciprocal, scalar_t(1) / x)

#undef SOPS_UNARY_FLOAT_IMPL
#undef SOPS_UNARY_FLOAT_VEC_IMPL

// floor, ceil, round (half to even, as std::nearbyint in the default rounding mode) and
// trunc: integral tensors are copied, floating ones rounded; bool is refused with
// PyTorch's message, which names its vectorized kernel.
#define SOPS_ROUNDING_IMPL(name, fn)                                                       \
  SOPS_IMPL_FUNC(name##_out)(const Tensor& /*self*/, const Tensor& /*out*/) {              \
    cpu_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, #name "_vml_cpu", \
                                      "self");                                             \
    SOPS_DISPATCH_ALL_TYPES(common_dtype(), #name, [&] {                                   \
      if constexpr (std::is_floating_point_v<scalar_t>) {                                  \
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return fn(x); });             \
      } else {                                                                             \
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return x; });                 \
      }                                                                                    \
    });                                                                                    \
  }

SOPS_ROUNDING_IMPL(floor, std::floor)
SOPS_ROUNDING_IMPL(ceil, std::ceil)
SOPS_ROUNDING_IMPL(round, std::nearbyint)
SOPS_ROUNDING_IMPL(trunc, std::trunc)

#undef SOPS_ROUNDING_IMPL

// Rounds to `decimals` decimal places as PyTorch does: x * 10^d rounded, then divided
// (d > 0), or x / 10^-d rounded, then multiplied (d < 0), the power taken in scalar_t.
// Floating tensors only (decimals 0 is round's kernel, with its error).
SOPS_IMPL_FUNC(round_decimals_out)(const Tensor& /*self*/, int64_t decimals,
                                   const Tensor& /*out*/) {
  const ScalarType dtype = common_dtype();
  cpu_util::check_dtype_implemented(dtype, dtypes::kFloatingTypes,
                                    decimals == 0 ? "round_vml_cpu" : "round_cpu", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype, "round", [&] {
    if (decimals == 0) {
      sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return std::nearbyint(x); });
      return;
    }
    const bool negative = decimals < 0;
    const auto ten_pow =
        static_cast<scalar_t>(std::pow(10.0, static_cast<double>(negative ? -decimals : decimals)));
    sops::cpu_kernel(*this, [ten_pow, negative](scalar_t x) -> scalar_t {
      return math::round_decimals_value(x, ten_pow, negative);
    });
  });
}

// math::sign_value: NaN and -0.0 give 0.0; bool is its own sign.
SOPS_IMPL_FUNC(sign_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(common_dtype(), "sign", [&] {
    sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return math::sign_value(x); });
  });
}

// ~x for integers, !x for bool.
SOPS_IMPL_FUNC(bitwise_not_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  const ScalarType dtype = common_dtype();
  if (dtype == ScalarType::Bool) {
    sops::cpu_kernel(*this, [](bool x) -> bool { return !x; });
    return;
  }
  cpu_util::check_dtype_implemented(dtype, dtypes::kIntegralTypes, "bitwise_not_cpu", "self");
  SOPS_DISPATCH_INTEGRAL_TYPES(dtype, "bitwise_not", [&] {
    sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return static_cast<scalar_t>(~x); });
  });
}

// PyTorch's pow_Tensor_Scalar_out: exponent 0 fills 1, exponent 1 copies; floating
// bases take sqrt, rsqrt, reciprocal, square, cube and 1/square for 0.5, -0.5, -1, 2, 3
// and -2, else pow in double; integral bases multiply by squaring (wrapping).
SOPS_IMPL_FUNC(pow_Tensor_Scalar_out)(const Tensor& self, const Scalar& exponent,
                                      const Tensor& /*out*/) {
  const ScalarType dtype = result_type(self, exponent);
  if (scalar_equals(exponent, 0.0) || (exponent.is_boolean() && !exponent.to_unchecked<bool>())) {
    SOPS_DISPATCH_ALL_TYPES_AND_BOOL(dtype, "pow", [&] {
      sops::cpu_kernel(*this, [](scalar_t /*x*/) -> scalar_t { return scalar_t(1); });
    });
    return;
  }
  if (scalar_equals(exponent, 1.0) || (exponent.is_boolean() && exponent.to_unchecked<bool>())) {
    SOPS_DISPATCH_ALL_TYPES_AND_BOOL(
        dtype, "pow", [&] { sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return x; }); });
    return;
  }
  if (is_floating_point(dtype)) {
    const double e = exponent.to_unchecked<double>();
    SOPS_DISPATCH_FLOATING_TYPES(dtype, "pow", [&] {
      if (e == 0.5) {
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return std::sqrt(x); });
      } else if (e == -0.5) {
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return scalar_t(1) / std::sqrt(x); });
      } else if (e == -1.0) {
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return scalar_t(1) / x; });
      } else if (e == 2.0) {
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return x * x; });
      } else if (e == 3.0) {
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return x * x * x; });
      } else if (e == -2.0) {
        sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t { return scalar_t(1) / (x * x); });
      } else {
        sops::cpu_kernel(*this, [e](scalar_t x) -> scalar_t {
          return static_cast<scalar_t>(std::pow(static_cast<double>(x), e));
        });
      }
    });
    return;
  }
  // Integral (bool ** n is int64: bool never reaches here with a number exponent).
  cpu_util::check_dtype_implemented(dtype, dtypes::kIntegralTypes, "pow", "self");
  SOPS_DISPATCH_INTEGRAL_TYPES(dtype, "pow", [&] {
    const scalar_t e = scalar_to<scalar_t>(exponent);
    sops::cpu_kernel(*this, [e](scalar_t x) -> scalar_t { return powi(x, e); });
  });
}

}  // namespace sops::aten::native
