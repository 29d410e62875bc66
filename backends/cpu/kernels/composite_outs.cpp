// CPU out= kernels of two composite operators whose out= variants native_functions.yaml
// leaves to `autogen:` (backends/cpu/autogen_kernels.yaml): full_like.out fills `out` and
// mul.Scalar_out multiplies into it, where autogen's kernels make the functional result
// and copy it. As autogen's kernel through the dispatcher (runtime/autogen_support.h,
// PyTorch's), an out of another dtype is not an error: full_like fills in out's dtype,
// and mul's product is converted to it.
#include <optional>

#include "aten/ops/fill.h"
#include "aten/ops/full_like_native.h"
#include "aten/ops/mul.h"
#include "aten/ops/mul_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/op_utils.h"
#include "runtime/type_promotion.h"

namespace sops::aten::native {

// full_like in out's dtype (autogen's kernel passes out's options as the functional's
// dtype, layout and device): self's sizes, every element fill_value. The memory format
// decides the functional result's strides, which autogen's copy does not keep.
Tensor& full_like_out(const Tensor& self, const Scalar& fill_value,
                      std::optional<MemoryFormat> /*memory_format*/, Tensor& out) {
  ops_util::check_scalar_fits(fill_value, out.scalar_type(), "fill_value");
  out.resize_(self.sizes());
  sops::aten::fill_(out, fill_value);
  return out;
}

// self * other, other a wrapped number as in mul.Scalar (ops/meta/scalar_overloads.cpp):
// mul.out into `out` when it has the promoted dtype (else the product converted).
Tensor& mul_Scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  const Tensor wrapped = ops_util::wrapped_scalar_like(other, self);
  if (out.scalar_type() != result_type(self, wrapped)) {
    cpu_util::copy_to_out(out, sops::aten::mul(self, wrapped));
    return out;
  }
  return sops::aten::mul_outf(self, wrapped, out);
}

}  // namespace sops::aten::native
