// CPU kernels of add, sub, mul and div: element-wise loops over the iterator the meta
// function built (inputs read as the common dtype, the result cast to out's dtype).
#include <cmath>
#include <optional>
#include <string_view>

#include "aten/ops/add_native.h"
#include "aten/ops/div_native.h"
#include "aten/ops/mul_native.h"
#include "aten/ops/sub_native.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {

using cpu_util::div_floor_floating;
using cpu_util::div_floor_integer;
using cpu_util::div_trunc_integer;
using cpu_util::scalar_to;
using cpu_util::wrapping_add;
using cpu_util::wrapping_mul;

namespace {

// out = self + alpha * other over the iterator (add, and sub with -alpha).
void add_kernel(const TensorIteratorBase& iter, const Scalar& alpha) {
  if (iter.common_dtype() == ScalarType::Bool) {
    // Booleans add as "or" (alpha is a bool here: the meta function checked it).
    const bool a = alpha.to_unchecked<bool>();
    sops::cpu_kernel(iter, [a](bool x, bool y) -> bool { return x || (a && y); });
    return;
  }
  SOPS_DISPATCH_ALL_TYPES(iter.common_dtype(), "add", [&] {
    const scalar_t a = scalar_to<scalar_t>(alpha);
    if (a == scalar_t(1)) {
      sops::cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return wrapping_add(x, y); });
    } else {
      sops::cpu_kernel(iter, [a](scalar_t x, scalar_t y) -> scalar_t {
        return wrapping_add(x, wrapping_mul(a, y));
      });
    }
  });
}

}  // namespace

SOPS_IMPL_FUNC(add_out)
(const Tensor& /*self*/, const Tensor& /*other*/, const Scalar& alpha, const Tensor& /*out*/) {
  add_kernel(*this, alpha);
}

// self - alpha * other: add with -alpha, as PyTorch does (bool was refused by the meta
// function).
SOPS_IMPL_FUNC(sub_out)
(const Tensor& /*self*/, const Tensor& /*other*/, const Scalar& alpha, const Tensor& /*out*/) {
  add_kernel(*this, -alpha);
}

SOPS_IMPL_FUNC(mul_out)(const Tensor& /*self*/, const Tensor& /*other*/, const Tensor& /*out*/) {
  if (common_dtype() == ScalarType::Bool) {
    sops::cpu_kernel(*this, [](bool x, bool y) -> bool { return x && y; });
    return;
  }
  SOPS_DISPATCH_ALL_TYPES(common_dtype(), "mul", [&] {
    sops::cpu_kernel(*this, [](scalar_t x, scalar_t y) -> scalar_t { return wrapping_mul(x, y); });
  });
}

SOPS_IMPL_FUNC(div_out)(const Tensor& /*self*/, const Tensor& /*other*/, const Tensor& /*out*/) {
  // The meta function promoted integral inputs to float32.
  SOPS_DISPATCH_FLOATING_TYPES(common_dtype(), "div", [&] {
    sops::cpu_kernel(*this, [](scalar_t x, scalar_t y) -> scalar_t { return x / y; });
  });
}

SOPS_IMPL_FUNC(div_out_mode)
(const Tensor& /*self*/, const Tensor& /*other*/, std::optional<std::string_view> rounding_mode,
 const Tensor& /*out*/) {
  const ScalarType dtype = common_dtype();
  if (!rounding_mode.has_value()) {
    SOPS_DISPATCH_FLOATING_TYPES(dtype, "div", [&] {
      sops::cpu_kernel(*this, [](scalar_t x, scalar_t y) -> scalar_t { return x / y; });
    });
    return;
  }
  const bool trunc = *rounding_mode == "trunc";
  const bool integral = is_integral(dtype, /*include_bool=*/false);
  if (!integral) {
    // PyTorch's floating kernels name themselves; bool is not among their dtypes.
    cpu_util::check_dtype_implemented(dtype, dtypes::kFloatingTypes,
                                      trunc ? "div_trunc_cpu" : "div_floor_cpu", "self");
    SOPS_DISPATCH_FLOATING_TYPES(dtype, "div", [&] {
      if (trunc) {
        sops::cpu_kernel(*this,
                         [](scalar_t x, scalar_t y) -> scalar_t { return std::trunc(x / y); });
      } else {
        sops::cpu_kernel(
            *this, [](scalar_t x, scalar_t y) -> scalar_t { return div_floor_floating(x, y); });
      }
    });
    return;
  }
  cpu_util::check_no_integer_division_by_zero(*this);
  SOPS_DISPATCH_INTEGRAL_TYPES(dtype, "div", [&] {
    if (trunc) {
      sops::cpu_kernel(*this,
                       [](scalar_t x, scalar_t y) -> scalar_t { return div_trunc_integer(x, y); });
    } else {
      sops::cpu_kernel(*this,
                       [](scalar_t x, scalar_t y) -> scalar_t { return div_floor_integer(x, y); });
    }
  });
}

}  // namespace sops::aten::native
