// Meta functions of the element-wise binary operators add and mul
// (structured_inherits: TensorIteratorBase).
#include "aten_cpu/NativeMetaFunctions.h"
#include "runtime/scalar_type.h"

namespace sops::aten::meta {
namespace {

// PyTorch's checks of add's alpha against the result dtype.
void check_alpha(ScalarType dtype, const Scalar& alpha) {
  SOPS_CHECK_ARG(!alpha.is_boolean() || dtype == ScalarType::Bool, "alpha",
                 "Boolean alpha only supported for Boolean results.");
  SOPS_CHECK_ARG(is_floating_point(dtype) || alpha.is_integral(/*include_bool=*/true), "alpha",
                 "For integral input tensors, argument alpha must not be a floating point number.");
}

}  // namespace

SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  check_alpha(dtype(), alpha);
}

SOPS_META_FUNC2(mul, Tensor)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

}  // namespace sops::aten::meta
