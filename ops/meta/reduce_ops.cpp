// Meta function of sum.dim_IntList: the reduced shape and the result dtype.
#include "aten_cpu/NativeMetaFunctions.h"
#include "ops/meta/op_utils.h"

namespace sops::aten::meta {

SOPS_META_FUNC2(sum, dim_IntList)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  // dtype= wins; else a given out's dtype; else self's, integral (and bool) promoted to int64.
  const Tensor& out = maybe_get_output();
  ScalarType out_dtype = self.scalar_type();
  if (dtype.has_value()) {
    out_dtype = *dtype;
  } else if (out.defined()) {
    out_dtype = out.scalar_type();
  } else if (is_integral(out_dtype, /*include_bool=*/true)) {
    out_dtype = ScalarType::Long;
  }

  const uint64_t mask = ops_util::reduction_mask(dim, self.dim());
  DimVector shape;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d) & 1u) {
      if (keepdim) shape.push_back(1);
    } else {
      shape.push_back(self.size(d));
    }
  }
  set_output_raw_strided(0, shape, {}, self.options().dtype(out_dtype));
}

}  // namespace sops::aten::meta
