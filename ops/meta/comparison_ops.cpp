// Meta functions of the comparisons (eq, ne, lt, le, gt, ge), the logical ops
// (logical_not, logical_and, logical_or) and where.self (structured_inherits:
// TensorIteratorBase). A new result is bool (where: result_type(self, other)); a given
// out= or inplace self keeps its dtype and receives the result converted.
#include "aten/ops/eq_meta.h"
#include "aten/ops/ge_meta.h"
#include "aten/ops/gt_meta.h"
#include "aten/ops/le_meta.h"
#include "aten/ops/logical_and_meta.h"
#include "aten/ops/logical_not_meta.h"
#include "aten/ops/logical_or_meta.h"
#include "aten/ops/lt_meta.h"
#include "aten/ops/ne_meta.h"
#include "aten/ops/where_meta.h"
#include "ops/util/op_utils.h"
#include "runtime/type_promotion.h"

namespace sops::aten::meta {

using ops_util::wrapped_scalar_like;

// Tensor overloads borrow both inputs; Scalar overloads own the wrapped scalar.
#define SOPS_COMPARISON_META(name)                                                   \
  SOPS_META_FUNC2(name, Tensor)(const Tensor& self, const Tensor& other) {           \
    build_borrowing_comparison_op(maybe_get_output(), self, other);                  \
  }                                                                                  \
  SOPS_META_FUNC2(name, Scalar)(const Tensor& self, const Scalar& other) {           \
    build_comparison_op(maybe_get_output(), self, wrapped_scalar_like(other, self)); \
  }

SOPS_COMPARISON_META(eq)
SOPS_COMPARISON_META(ne)
SOPS_COMPARISON_META(lt)
SOPS_COMPARISON_META(le)
SOPS_COMPARISON_META(gt)
SOPS_COMPARISON_META(ge)

#undef SOPS_COMPARISON_META

// PyTorch's logical_not_out: no promotion; a new result is bool.
SOPS_META_FUNC(logical_not)(const Tensor& self) {
  TensorIteratorConfig config;
  config.add_output(maybe_get_output(), "out")
      .add_input(self, "self")
      .check_all_same_dtype(false)
      .cast_common_dtype_to_outputs(true)
      .declare_static_dtype(ScalarType::Bool);
  build(config);
}

// PyTorch's comparison_op_out: inputs promoted (so int8 with uint8 needs int16).
SOPS_META_FUNC(logical_and)(const Tensor& self, const Tensor& other) {
  build_borrowing_comparison_op(maybe_get_output(), self, other);
}

SOPS_META_FUNC(logical_or)(const Tensor& self, const Tensor& other) {
  build_borrowing_comparison_op(maybe_get_output(), self, other);
}

// PyTorch's where_self_out: out must have result_type(self, other); a uint8 condition
// is read as bool (PyTorch warns that it is deprecated); any other must be bool.
SOPS_META_FUNC2(where, self)(const Tensor& condition, const Tensor& self, const Tensor& other) {
  const ScalarType result = result_type(self, other);
  const Tensor& out = maybe_get_output();
  if (out.defined()) {
    SOPS_CHECK_ARG(out.scalar_type() == result, "out", "Expected out type to be ",
                   ops_util::aten_name(result), " but got ",
                   ops_util::aten_name(out.scalar_type()));
  }
  const ScalarType c = condition.scalar_type();
  SOPS_CHECK_ARG(c == ScalarType::Bool || c == ScalarType::Byte, "condition",
                 "where expected condition to be a boolean tensor, but got a tensor with dtype ",
                 ops_util::aten_name(c));
  TensorIteratorConfig config;
  config.add_output(out, "out")
      .add_input(condition, "condition")
      .add_input(self, "self")
      .add_input(other, "other")
      .check_all_same_dtype(false)
      .allow_cpu_scalars(true)  // PyTorch's where moves 0-dim cpu tensors to the common device
      .declare_static_dtype(result);
  build(config);
}

}  // namespace sops::aten::meta
