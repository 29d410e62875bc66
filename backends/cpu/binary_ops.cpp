// CPU kernels of add and mul: element-wise loops over the iterator the meta
// function built (inputs read as the common dtype, the result cast to out's dtype).
#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {

using cpu_util::scalar_to;
using cpu_util::wrapping_add;
using cpu_util::wrapping_mul;

SOPS_IMPL_FUNC(add_out)
(const Tensor& /*self*/, const Tensor& /*other*/, const Scalar& alpha, const Tensor& /*out*/) {
  if (common_dtype() == ScalarType::Bool) {
    // Booleans add as "or" (alpha is a bool here: the meta function checked it).
    const bool a = alpha.to_unchecked<bool>();
    sops::cpu_kernel(*this, [a](bool x, bool y) -> bool { return x || (a && y); });
    return;
  }
  SOPS_DISPATCH_ALL_TYPES(common_dtype(), "add", [&] {
    const scalar_t a = scalar_to<scalar_t>(alpha);
    if (a == scalar_t(1)) {
      sops::cpu_kernel(*this, [](scalar_t x, scalar_t y) -> scalar_t { return wrapping_add(x, y); });
    } else {
      sops::cpu_kernel(*this, [a](scalar_t x, scalar_t y) -> scalar_t {
        return wrapping_add(x, wrapping_mul(a, y));
      });
    }
  });
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

}  // namespace sops::aten::native
