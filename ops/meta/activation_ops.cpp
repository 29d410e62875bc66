// Meta functions of the element-wise activations and clamping (structured_inherits:
// TensorIteratorBase): elu, gelu, silu, hardsigmoid, hardswish, hardtanh, leaky_relu keep the
// dtype (a given out must have it; the kernels refuse non-floating dtypes, as PyTorch's
// do), clamp promotes self with its Scalar bounds.
#include <optional>
#include <string_view>

#include "aten/ops/clamp_meta.h"
#include "aten/ops/elu_meta.h"
#include "aten/ops/gelu_meta.h"
#include "aten/ops/hardsigmoid_meta.h"
#include "aten/ops/hardswish_meta.h"
#include "aten/ops/hardtanh_meta.h"
#include "aten/ops/leaky_relu_meta.h"
#include "aten/ops/silu_meta.h"
#include "ops/util/op_utils.h"
#include "runtime/type_promotion.h"

namespace sops::aten::meta {

using ops_util::check_out_dtype;

SOPS_META_FUNC(gelu)(const Tensor& self, std::string_view /*approximate*/) {
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

SOPS_META_FUNC(elu)
(const Tensor& self, const Scalar& /*alpha*/, const Scalar& /*scale*/,
 const Scalar& /*input_scale*/) {
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

SOPS_META_FUNC(silu)(const Tensor& self) {
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

SOPS_META_FUNC(hardsigmoid)(const Tensor& self) {
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

SOPS_META_FUNC(hardswish)(const Tensor& self) {
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

SOPS_META_FUNC(leaky_relu)(const Tensor& self, const Scalar& /*negative_slope*/) {
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

// PyTorch's hardtanh_out: no bool; integral tensors take the bounds as integers (so the
// result keeps self's dtype), and uint8 refuses negative ones.
SOPS_META_FUNC(hardtanh)(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "Bool inputs not supported for hardtanh");
  if (is_integral(self.scalar_type(), /*include_bool=*/false)) {
    SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Byte ||
                       (min_val.to<int64_t>() >= 0 && max_val.to<int64_t>() >= 0),
                   min_val.to<int64_t>() < 0 ? "min_val" : "max_val",
                   "cannot do hardtanh on an unsigned type with negative limits");
  }
  check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

// PyTorch's clamp meta: at least one bound; a non-floating self promotes with the bounds
// as Python numbers (int64 tensor clamped to 1.5 is float32), which an inplace self must
// hold; a given out must have the result dtype. self is read as it by the kernel.
SOPS_META_FUNC(clamp)(const Tensor& self, OptionalScalarRef min, OptionalScalarRef max) {
  SOPS_CHECK_ARG(min.has_value() || max.has_value(), "min",
                 "torch.clamp: At least one of 'min' or 'max' must not be None");
  ScalarType result = self.scalar_type();
  const Tensor& out = maybe_get_output();
  if (!is_floating_point(result)) {
    ResultTypeState state;
    state = update_result_type_state(self, state);
    if (min.has_value()) state = update_result_type_state(*min, state);
    if (max.has_value()) state = update_result_type_state(*max, state);
    result = result_type(state);
    SOPS_CHECK_ARG(result == self.scalar_type() || !out.defined() || !out.is_same(self), "self",
                   "result type ", ops_util::aten_name(result),
                   " can't be cast to the desired output type ",
                   ops_util::typemeta_name(self.scalar_type()));
  }
  check_out_dtype(out, result);
  TensorIteratorConfig config;
  config.add_output(out, "out")
      .add_input(self, "self")
      .check_all_same_dtype(false)
      .declare_static_dtype(result);
  build(config);
}

}  // namespace sops::aten::meta
