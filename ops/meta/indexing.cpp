// Meta functions of gather, index.Tensor and cumsum (structured, without a
// TensorIterator): the result's shape and dtype, and PyTorch's argument checks.
#include <optional>

#include "aten/ops/cumsum_meta.h"
#include "aten/ops/gather_meta.h"
#include "aten/ops/index_meta.h"
#include "ops/util/index_utils.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {

// out[i][j][k] = self[index[i][j][k]][j][k] (dim 0): the result has index's shape.
SOPS_META_FUNC(gather)(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  const int64_t wrapped = ops_util::wrap_dim(dim, self.dim());
  // An empty index may have any dtype (PyTorch checks only a non-empty one).
  SOPS_CHECK_ARG(index.numel() == 0 || index.scalar_type() == ScalarType::Long ||
                     index.scalar_type() == ScalarType::Int,
                 "index", "gather(): Expected dtype int32/int64 for index");
  const int64_t self_dims = self.dim() == 0 ? 1 : self.dim();
  const int64_t index_dims = index.dim() == 0 ? 1 : index.dim();
  SOPS_CHECK_ARG(index.numel() == 0 || self_dims == index_dims, "index",
                 "Index tensor must have the same number of dimensions as input tensor");
  if (index.numel() != 0) {
    for (int64_t d = 0; d < index.dim(); ++d) {
      if (d == wrapped) continue;
      SOPS_CHECK_ARG(index.size(d) <= self.size(d), "index", "Size does not match at dimension ", d,
                     " expected index ", index.sizes(), " to be no larger than self ", self.sizes(),
                     " apart from dimension ", wrapped);
    }
  }
  set_output_raw_strided(0, index.sizes(), {}, self.options());
}

SOPS_META_FUNC2(index, Tensor)(const Tensor& self, IOptTensorListRef indices) {
  const ops_util::IndexPlan plan = ops_util::make_index_plan(self, indices);
  set_output_raw_strided(0, plan.result_shape, {}, self.options());
}

// The result's dtype: `dtype`, else out's, else int64 for integral and bool self.
SOPS_META_FUNC(cumsum)(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  ops_util::wrap_dim(dim, self.dim());
  const Tensor& out = maybe_get_output();
  ScalarType result = self.scalar_type();
  if (out.defined()) {
    result = dtype.value_or(out.scalar_type());
  } else if (is_integral(self.scalar_type(), /*include_bool=*/true)) {
    result = dtype.value_or(ScalarType::Long);
  } else {
    result = dtype.value_or(self.scalar_type());
  }
  set_output_raw_strided(0, self.sizes(), {}, self.options().dtype(result));
}

}  // namespace sops::aten::meta
