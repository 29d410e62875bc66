// Meta functions of scatter (src and value), scatter_add and scatter_reduce.two
// (structured): PyTorch's checks of index and src against self, and a result shaped as
// self.
#include <string_view>

#include "aten/ops/scatter_add_meta.h"
#include "aten/ops/scatter_meta.h"
#include "aten/ops/scatter_reduce_meta.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {
namespace {

// PyTorch's scatter_gather_dtype_check and scatter_shape_check.
void scatter_checks(MetaBase& op, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor* src, const char* name) {
  const int64_t wrapped = ops_util::wrap_dim(dim, self.dim());
  // An empty index may have any dtype (PyTorch checks only a non-empty one).
  SOPS_CHECK_ARG(index.numel() == 0 || index.scalar_type() == ScalarType::Long ||
                     index.scalar_type() == ScalarType::Int,
                 "index", name, "(): Expected dtype int32/int64 for index");
  if (src != nullptr) {
    SOPS_CHECK_ARG(src->scalar_type() == self.scalar_type(), "src", name,
                   "(): Expected self.dtype to be equal to src.dtype");
  }
  if (index.numel() != 0) {
    const int64_t self_dims = self.dim() == 0 ? 1 : self.dim();
    const int64_t index_dims = index.dim() == 0 ? 1 : index.dim();
    SOPS_CHECK_ARG(self_dims == index_dims, "index",
                   "Index tensor must have the same number of dimensions as self tensor");
    if (src != nullptr) {
      const int64_t src_dims = src->dim() == 0 ? 1 : src->dim();
      SOPS_CHECK_ARG(src_dims == index_dims, "index",
                     "Index tensor must have the same number of dimensions as src tensor");
    }
    for (int64_t d = 0; d < index.dim(); ++d) {
      const bool self_ok = d == wrapped || index.size(d) <= self.size(d);
      const bool src_ok = src == nullptr || index.size(d) <= src->size(d);
      if (self_ok && src_ok) continue;
      if (src != nullptr) {
        SOPS_CHECK_ARG(false, "index", "Expected index ", index.sizes(),
                       " to be no larger than self ", self.sizes(), " apart from dimension ",
                       wrapped, " and to be no larger size than src ", src->sizes());
      }
      SOPS_CHECK_ARG(false, "index", "Expected index ", index.sizes(),
                     " to be no larger than self ", self.sizes(), " apart from dimension ",
                     wrapped);
    }
  }
  op.set_output_raw_strided(0, self.sizes(), {}, self.options());
}

}  // namespace

SOPS_META_FUNC2(scatter, src)
(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_checks(*this, self, dim, index, &src, "scatter");
}

SOPS_META_FUNC2(scatter, value)
(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& /*value*/) {
  scatter_checks(*this, self, dim, index, nullptr, "scatter");
}

SOPS_META_FUNC(scatter_add)
(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_checks(*this, self, dim, index, &src, "scatter_add");
}

// PyTorch's checks name the operator scatter (its shared meta function's name).
SOPS_META_FUNC2(scatter_reduce, two)
(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
 bool /*include_self*/) {
  SOPS_CHECK_ARG(reduce == "sum" || reduce == "prod" || reduce == "mean" || reduce == "amax" ||
                     reduce == "amin",
                 "reduce", "reduce argument must be either sum, prod, mean, amax or amin, got ",
                 reduce);
  scatter_checks(*this, self, dim, index, &src, "scatter");
}

}  // namespace sops::aten::meta
