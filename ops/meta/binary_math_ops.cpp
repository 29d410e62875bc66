// Meta functions of the element-wise binary math of core ATen (structured_inherits:
// TensorIteratorBase, except pow.Scalar): the bitwise ops, maximum and minimum, fmod and
// remainder, atan2, pow with a tensor exponent, clamp with tensor bounds, logical_xor.
// Inputs promote to their result_type; atan2 computes in floating point.
#include "aten/ops/atan2_meta.h"
#include "aten/ops/bitwise_and_meta.h"
#include "aten/ops/bitwise_or_meta.h"
#include "aten/ops/bitwise_xor_meta.h"
#include "aten/ops/clamp_meta.h"
#include "aten/ops/fmod_meta.h"
#include "aten/ops/logical_xor_meta.h"
#include "aten/ops/maximum_meta.h"
#include "aten/ops/minimum_meta.h"
#include "aten/ops/pow_meta.h"
#include "aten/ops/remainder_meta.h"
#include "ops/util/op_utils.h"
#include "runtime/type_promotion.h"

namespace sops::aten::meta {

#define SOPS_BINARY_META(name, overload)                                     \
  SOPS_META_FUNC2(name, overload)(const Tensor& self, const Tensor& other) { \
    build_borrowing_binary_op(maybe_get_output(), self, other);              \
  }

SOPS_BINARY_META(bitwise_and, Tensor)
SOPS_BINARY_META(bitwise_or, Tensor)
SOPS_BINARY_META(bitwise_xor, Tensor)
SOPS_BINARY_META(fmod, Tensor)
SOPS_BINARY_META(remainder, Tensor)

#undef SOPS_BINARY_META

SOPS_META_FUNC(maximum)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

SOPS_META_FUNC(minimum)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

SOPS_META_FUNC(atan2)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_float_op(maybe_get_output(), self, other);
}

SOPS_META_FUNC2(pow, Tensor_Tensor)(const Tensor& self, const Tensor& exponent) {
  build_borrowing_binary_op(maybe_get_output(), self, exponent);
}

// base ** exponent for a Scalar base: the result has exponent's shape and
// result_type(base, exponent) (or out's dtype); the kernel runs pow.Tensor_Tensor_out.
SOPS_META_FUNC2(pow, Scalar)(const Scalar& self, const Tensor& exponent) {
  const Tensor& out = maybe_get_output();
  const ScalarType dtype = out.defined() ? out.scalar_type() : result_type(self, exponent);
  set_output_raw_strided(0, exponent.sizes(), {}, exponent.options().dtype(dtype));
}

// PyTorch's comparison_op_out: inputs promoted; a new result is bool.
SOPS_META_FUNC(logical_xor)(const Tensor& self, const Tensor& other) {
  build_borrowing_comparison_op(maybe_get_output(), self, other);
}

// self, then the bounds given, promoted to their common dtype; out must be castable from it.
SOPS_META_FUNC2(clamp, Tensor)(const Tensor& self, OptionalTensorRef min, OptionalTensorRef max) {
  SOPS_CHECK_ARG(min.has_value() || max.has_value(), "min",
                 "torch.clamp: At least one of 'min' or 'max' must not be None");
  TensorIteratorConfig config;
  config.add_output(maybe_get_output(), "out")
      .add_input(self, "self")
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  if (min.has_value()) config.add_input(*min, "min");
  if (max.has_value()) config.add_input(*max, "max");
  build(config);
}

}  // namespace sops::aten::meta
