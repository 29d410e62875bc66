// gelu: one meta function (shapes and dtypes) and one CPU impl (the values).
#include <cmath>

#include "my_ops/NativeFunctions.h"
#include "runtime/cpu_loops.h"
#include "runtime/visit_dtype.h"

namespace my::ops::meta {

SOPS_META_FUNC(gelu)(const Tensor& self, std::string_view approximate) {
  SOPS_CHECK_ARG(approximate == "none" || approximate == "tanh", "approximate",
                 "expected 'none' or 'tanh' but got '", approximate, "'");
  build_borrowing_unary_op(maybe_get_output(), self);
}

}  // namespace my::ops::meta

namespace my::ops::native {

SOPS_IMPL_FUNC(gelu_out)(const Tensor& /*self*/, std::string_view approximate,
                         const Tensor& /*out*/) {
  const bool tanh = approximate == "tanh";
  SOPS_DISPATCH_FLOATING_TYPES(common_dtype(), "gelu", [&] {
    ::sops::cpu_kernel(*this, [tanh](scalar_t x) -> scalar_t {
      if (tanh) {
        const scalar_t inner =
            std::sqrt(scalar_t(2) / scalar_t(M_PI)) * (x + scalar_t(0.044715) * x * x * x);
        return scalar_t(0.5) * x * (scalar_t(1) + std::tanh(inner));
      }
      return scalar_t(0.5) * x * (scalar_t(1) + std::erf(x / std::sqrt(scalar_t(2))));
    });
  });
}

}  // namespace my::ops::native
