// CPU out= kernels of two composite operators whose out= variants native_functions.yaml
// leaves to `autogen:` (backends/cpu/autogen_kernels.yaml): full_like.out fills `out` and
// mul.Scalar_out multiplies into it, where autogen's kernels make the functional result
// and copy it. Same checks and messages as autogen's (runtime/autogen_support.h).
#include <optional>

#include "aten/ops/fill.h"
#include "aten/ops/full_like_native.h"
#include "aten/ops/mul.h"
#include "aten/ops/mul_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/op_utils.h"
#include "runtime/type_promotion.h"

namespace sops::aten::native {

// full_like without a dtype: self's sizes and dtype, every element fill_value. The memory
// format decides the functional result's strides, which autogen's copy does not keep.
Tensor& full_like_out(const Tensor& self, const Scalar& fill_value,
                      std::optional<MemoryFormat> /*memory_format*/, Tensor& out) {
  ops_util::check_scalar_fits(fill_value, self.scalar_type(), "fill_value");
  cpu_util::check_out_dtype(out, self.scalar_type());
  out.resize_(self.sizes());
  sops::aten::fill_(out, fill_value);
  return out;
}

// self * other, other a wrapped number as in mul.Scalar (ops/meta/scalar_overloads.cpp):
// mul.out into `out`, which must have the promoted dtype.
Tensor& mul_Scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  const Tensor wrapped = ops_util::wrapped_scalar_like(other, self);
  cpu_util::check_out_dtype(out, result_type(self, wrapped));
  return sops::aten::mul_outf(self, wrapped, out);
}

}  // namespace sops::aten::native
