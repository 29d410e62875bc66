// Meta functions of the element-wise unary math operators (the yaml's "unary math"
// section; structured_inherits: TensorIteratorBase): SOPS_UNARY_META keeps the dtype (a
// given out must have it), SOPS_UNARY_FLOAT_META computes in floating point (integral and
// bool inputs give float32), pow.Tensor_Scalar promotes self with the exponent as a
// Python number.
#include "aten/ops/abs_meta.h"
#include "aten/ops/acos_meta.h"
#include "aten/ops/acosh_meta.h"
#include "aten/ops/asin_meta.h"
#include "aten/ops/asinh_meta.h"
#include "aten/ops/atan_meta.h"
#include "aten/ops/atanh_meta.h"
#include "aten/ops/bitwise_not_meta.h"
#include "aten/ops/ceil_meta.h"
#include "aten/ops/cos_meta.h"
#include "aten/ops/cosh_meta.h"
#include "aten/ops/erf_meta.h"
#include "aten/ops/exp_meta.h"
#include "aten/ops/expm1_meta.h"
#include "aten/ops/floor_meta.h"
#include "aten/ops/log10_meta.h"
#include "aten/ops/log1p_meta.h"
#include "aten/ops/log2_meta.h"
#include "aten/ops/log_meta.h"
#include "aten/ops/neg_meta.h"
#include "aten/ops/pow_meta.h"
#include "aten/ops/reciprocal_meta.h"
#include "aten/ops/round_meta.h"
#include "aten/ops/rsqrt_meta.h"
#include "aten/ops/sigmoid_meta.h"
#include "aten/ops/sign_meta.h"
#include "aten/ops/sin_meta.h"
#include "aten/ops/sinh_meta.h"
#include "aten/ops/sqrt_meta.h"
#include "aten/ops/tan_meta.h"
#include "aten/ops/tanh_meta.h"
#include "aten/ops/trunc_meta.h"
#include "ops/util/op_utils.h"
#include "runtime/type_promotion.h"

namespace sops::aten::meta {

SOPS_META_FUNC(neg)(const Tensor& self) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                 "to invert a mask, use the `~` or `logical_not()` operator instead.");
  ops_util::check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

SOPS_META_FUNC(abs)(const Tensor& self) {
  ops_util::check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

#define SOPS_UNARY_FLOAT_META(name)                           \
  SOPS_META_FUNC(name)(const Tensor& self) {                  \
    build_borrowing_unary_float_op(maybe_get_output(), self); \
  }

SOPS_UNARY_FLOAT_META(exp)
SOPS_UNARY_FLOAT_META(log)
SOPS_UNARY_FLOAT_META(sqrt)
SOPS_UNARY_FLOAT_META(rsqrt)
SOPS_UNARY_FLOAT_META(sin)
SOPS_UNARY_FLOAT_META(cos)
SOPS_UNARY_FLOAT_META(tan)
SOPS_UNARY_FLOAT_META(asin)
SOPS_UNARY_FLOAT_META(acos)
SOPS_UNARY_FLOAT_META(atan)
SOPS_UNARY_FLOAT_META(sinh)
SOPS_UNARY_FLOAT_META(cosh)
SOPS_UNARY_FLOAT_META(asinh)
SOPS_UNARY_FLOAT_META(acosh)
SOPS_UNARY_FLOAT_META(atanh)
SOPS_UNARY_FLOAT_META(erf)
SOPS_UNARY_FLOAT_META(expm1)
SOPS_UNARY_FLOAT_META(log1p)
SOPS_UNARY_FLOAT_META(log2)
SOPS_UNARY_FLOAT_META(log10)
SOPS_UNARY_FLOAT_META(sigmoid)
SOPS_UNARY_FLOAT_META(tanh)
SOPS_UNARY_FLOAT_META(reciprocal)

#undef SOPS_UNARY_FLOAT_META

// The rounding ops, sign and bitwise_not keep the dtype (a given out must have it).
#define SOPS_UNARY_META(name)                                          \
  SOPS_META_FUNC(name)(const Tensor& self) {                           \
    ops_util::check_out_dtype(maybe_get_output(), self.scalar_type()); \
    build_borrowing_unary_op(maybe_get_output(), self);                \
  }

SOPS_UNARY_META(floor)
SOPS_UNARY_META(ceil)
SOPS_UNARY_META(round)
SOPS_UNARY_META(trunc)
SOPS_UNARY_META(sign)
SOPS_UNARY_META(bitwise_not)

#undef SOPS_UNARY_META

SOPS_META_FUNC2(round, decimals)(const Tensor& self, int64_t /*decimals*/) {
  ops_util::check_out_dtype(maybe_get_output(), self.scalar_type());
  build_borrowing_unary_op(maybe_get_output(), self);
}

// The result dtype is result_type(self, exponent) (int32 ** 2 is int32, ** 2.5 float32,
// bool ** 2 int64); a given out (or inplace self) must be castable from it. self is read
// as that dtype by the kernel.
SOPS_META_FUNC2(pow, Tensor_Scalar)(const Tensor& self, const Scalar& exponent) {
  SOPS_CHECK_ARG(!(is_integral(self.scalar_type(), /*include_bool=*/true) &&
                   exponent.is_integral(/*include_bool=*/true) && exponent.to_long() < 0),
                 "exponent", "Integers to negative integer powers are not allowed.");
  const ScalarType common = result_type(self, exponent);
  const Tensor& out = maybe_get_output();
  if (out.defined()) {
    SOPS_CHECK_ARG(can_cast(common, out.scalar_type()), "out", "result type ",
                   ops_util::aten_name(common), " can't be cast to the desired output type ",
                   ops_util::aten_name(out.scalar_type()));
  }
  TensorIteratorConfig config;
  config.add_output(out, "out")
      .add_input(self, "self")
      .check_all_same_dtype(false)
      .cast_common_dtype_to_outputs(true)
      .declare_static_dtype(common);
  build(config);
}

}  // namespace sops::aten::meta
