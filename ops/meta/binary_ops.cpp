// Meta functions of the element-wise binary arithmetic operators add, sub, mul and div
// (structured_inherits: TensorIteratorBase).
#include <optional>
#include <string_view>

#include "aten/ops/add_meta.h"
#include "aten/ops/div_meta.h"
#include "aten/ops/mul_meta.h"
#include "aten/ops/sub_meta.h"
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

// PyTorch's sub_check: no bool operand.
void check_sub(const Tensor& self, const Tensor& other) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool || other.scalar_type() != ScalarType::Bool,
                 "self",
                 "Subtraction, the `-` operator, with two bool tensors is not supported. "
                 "Use the `^` or `logical_xor()` operator instead.");
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool && other.scalar_type() != ScalarType::Bool,
                 self.scalar_type() == ScalarType::Bool ? "self" : "other",
                 "Subtraction, the `-` operator, with a bool tensor is not supported. "
                 "If you are trying to invert a mask, use the `~` or `logical_not()` operator "
                 "instead.");
}

}  // namespace

SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  check_alpha(dtype(), alpha);
}

SOPS_META_FUNC2(sub, Tensor)(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  build_borrowing_binary_op(maybe_get_output(), self, other);
  check_alpha(dtype(), alpha);
}

SOPS_META_FUNC2(mul, Tensor)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

// True division: integral and bool inputs give float32.
SOPS_META_FUNC2(div, Tensor)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_float_op(maybe_get_output(), self, other);
}

// rounding_mode None: true division; "trunc" and "floor" keep the promoted dtype.
SOPS_META_FUNC2(div, Tensor_mode)
(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode.has_value()) {
    build_borrowing_binary_float_op(maybe_get_output(), self, other);
    return;
  }
  SOPS_CHECK_ARG(*rounding_mode == "trunc" || *rounding_mode == "floor", "rounding_mode",
                 "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
                 *rounding_mode, "'");
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

}  // namespace sops::aten::meta
