// CPU kernels of the element-wise binary math of core ATen: the bitwise ops, maximum and
// minimum, fmod and remainder, atan2, pow with a tensor exponent (and a Scalar base),
// clamp with tensor bounds and logical_xor, over the iterator the meta function built.
#include <cmath>
#include <type_traits>

#include "aten/ops/atan2_native.h"
#include "aten/ops/bitwise_and_native.h"
#include "aten/ops/bitwise_or_native.h"
#include "aten/ops/bitwise_xor_native.h"
#include "aten/ops/clamp_native.h"
#include "aten/ops/fill.h"
#include "aten/ops/fmod_native.h"
#include "aten/ops/logical_xor_native.h"
#include "aten/ops/maximum_native.h"
#include "aten/ops/minimum_native.h"
#include "aten/ops/pow.h"
#include "aten/ops/pow_native.h"
#include "aten/ops/remainder_native.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {
namespace {

// The bitwise ops: bool operands combine logically, integral ones bit by bit; floating
// ones are refused with PyTorch's message ("bitwise_and_cpu" not implemented for 'Float').
template <typename BoolOp, typename IntOp>
void bitwise_kernel(const TensorIteratorBase& iter, const char* kernel_name, BoolOp bool_op,
                    IntOp int_op) {
  const ScalarType dtype = iter.common_dtype();
  if (dtype == ScalarType::Bool) {
    sops::cpu_kernel(iter, bool_op);
    return;
  }
  cpu_util::check_dtype_implemented(dtype, dtypes::kIntegralTypes, kernel_name, "self");
  SOPS_DISPATCH_INTEGRAL_TYPES(dtype, kernel_name, [&] {
    sops::cpu_kernel(iter, [int_op](scalar_t a, scalar_t b) -> scalar_t {
      return static_cast<scalar_t>(int_op(a, b));
    });
  });
}

// maximum (Max) or minimum (math::maximum_value: NaN wins; bool is "or" / "and").
template <bool Max>
void extremum_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), Max ? "maximum" : "minimum", [&] {
    sops::cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      return Max ? math::maximum_value(a, b) : math::minimum_value(a, b);
    });
  });
}

}  // namespace

SOPS_IMPL_FUNC(bitwise_and_out)(const Tensor&, const Tensor&, const Tensor&) {
  bitwise_kernel(
      *this, "bitwise_and_cpu", [](bool a, bool b) -> bool { return a && b; },
      [](auto a, auto b) { return a & b; });
}

SOPS_IMPL_FUNC(bitwise_or_out)(const Tensor&, const Tensor&, const Tensor&) {
  bitwise_kernel(
      *this, "bitwise_or_cpu", [](bool a, bool b) -> bool { return a || b; },
      [](auto a, auto b) { return a | b; });
}

SOPS_IMPL_FUNC(bitwise_xor_out)(const Tensor&, const Tensor&, const Tensor&) {
  bitwise_kernel(
      *this, "bitwise_xor_cpu", [](bool a, bool b) -> bool { return a != b; },
      [](auto a, auto b) { return a ^ b; });
}

SOPS_IMPL_FUNC(maximum_out)(const Tensor&, const Tensor&, const Tensor&) {
  extremum_kernel</*Max=*/true>(*this);
}

SOPS_IMPL_FUNC(minimum_out)(const Tensor&, const Tensor&, const Tensor&) {
  extremum_kernel</*Max=*/false>(*this);
}

// C's fmod: the remainder has the dividend's sign.
SOPS_IMPL_FUNC(fmod_out)(const Tensor&, const Tensor&, const Tensor&) {
  const ScalarType dtype = common_dtype();
  cpu_util::check_dtype_implemented(dtype, dtypes::kAllTypes, "fmod_cpu", "self");
  if (is_integral(dtype, /*include_bool=*/false)) {
    cpu_util::check_no_integer_division_by_zero(*this);
    SOPS_DISPATCH_INTEGRAL_TYPES(dtype, "fmod", [&] {
      sops::cpu_kernel(*this,
                       [](scalar_t a, scalar_t b) -> scalar_t { return math::fmod_integer(a, b); });
    });
    return;
  }
  SOPS_DISPATCH_FLOATING_TYPES(dtype, "fmod", [&] {
    sops::cpu_kernel(*this, [](scalar_t a, scalar_t b) -> scalar_t { return std::fmod(a, b); });
  });
}

// Python's %: the remainder has the divisor's sign.
SOPS_IMPL_FUNC(remainder_out)(const Tensor&, const Tensor&, const Tensor&) {
  const ScalarType dtype = common_dtype();
  cpu_util::check_dtype_implemented(dtype, dtypes::kAllTypes, "remainder_cpu", "self");
  if (is_integral(dtype, /*include_bool=*/false)) {
    cpu_util::check_no_integer_division_by_zero(*this);
    SOPS_DISPATCH_INTEGRAL_TYPES(dtype, "remainder", [&] {
      sops::cpu_kernel(
          *this, [](scalar_t a, scalar_t b) -> scalar_t { return math::remainder_integer(a, b); });
    });
    return;
  }
  SOPS_DISPATCH_FLOATING_TYPES(dtype, "remainder", [&] {
    sops::cpu_kernel(
        *this, [](scalar_t a, scalar_t b) -> scalar_t { return math::remainder_floating(a, b); });
  });
}

SOPS_IMPL_FUNC(atan2_out)(const Tensor&, const Tensor&, const Tensor&) {
  SOPS_DISPATCH_FLOATING_TYPES(common_dtype(), "atan2", [&] {
    sops::cpu_kernel(*this, [](scalar_t a, scalar_t b) -> scalar_t { return std::atan2(a, b); });
  });
}

SOPS_IMPL_FUNC(pow_Tensor_Tensor_out)(const Tensor&, const Tensor&, const Tensor&) {
  const ScalarType dtype = common_dtype();
  cpu_util::check_dtype_implemented(dtype, dtypes::kAllTypes, "pow", "self");
  SOPS_DISPATCH_ALL_TYPES(dtype, "pow", [&] {
    sops::cpu_kernel(*this, [](scalar_t base, scalar_t exp) -> scalar_t {
      if constexpr (std::is_floating_point_v<scalar_t>) {
        return std::pow(base, exp);
      } else {
        return math::pow_integer(base, exp);
      }
    });
  });
}

// A base of 1 gives ones (even for a NaN exponent); any other runs pow.Tensor_Tensor
// with the base as a wrapped 0-dim tensor.
SOPS_IMPL_FUNC(pow_Scalar_out)(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  if (!self.is_boolean() && self.to_unchecked<double>() == 1.0) {
    Tensor result = out;
    sops::aten::fill_(result, Scalar(int64_t{1}));
    return;
  }
  Tensor result = out;
  sops::aten::pow_out(result, ops_util::wrapped_scalar_like(self, exponent), exponent);
}

// min and max: max(a, min) then min(., max), a NaN bound giving NaN (PyTorch's clamp
// kernel, which refuses bool); one bound: maximum's or minimum's kernel, as in PyTorch.
SOPS_IMPL_FUNC(clamp_Tensor_out)
(const Tensor&, OptionalTensorRef min, OptionalTensorRef max, const Tensor&) {
  if (!(min.has_value() && max.has_value())) {
    if (min.has_value()) {
      extremum_kernel</*Max=*/true>(*this);
    } else {
      extremum_kernel</*Max=*/false>(*this);
    }
    return;
  }
  const ScalarType dtype = common_dtype();
  cpu_util::check_dtype_implemented(dtype, dtypes::kAllTypes, "clamp_cpu", "self");
  SOPS_DISPATCH_ALL_TYPES(dtype, "clamp", [&] {
    sops::cpu_kernel(*this, [](scalar_t a, scalar_t lo, scalar_t hi) -> scalar_t {
      return math::clamp_value(a, lo, hi);
    });
  });
}

SOPS_IMPL_FUNC(logical_xor_out)(const Tensor&, const Tensor&, const Tensor&) {
  sops::cpu_kernel(*this, [](bool a, bool b) -> bool { return a != b; });
}

}  // namespace sops::aten::native
