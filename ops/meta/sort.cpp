// topk's meta function (structured): k within the dimension's size; values and int64
// indices of self's shape with that dimension k long.
#include "aten/ops/topk_meta.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {

SOPS_META_FUNC(topk)(const Tensor& self, int64_t k, int64_t dim, bool /*largest*/,
                     bool /*sorted*/) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "topk does not support bool dtypes on CPU");
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  SOPS_CHECK_ARG(k >= 0 && k <= size, "k", "selected index k out of range");
  DimVector sizes(self.sizes());
  if (!sizes.empty()) sizes[d] = k;
  set_output_raw_strided(0, sizes, {}, self.options());
  set_output_raw_strided(1, sizes, {}, self.options().dtype(ScalarType::Long));
}

}  // namespace sops::aten::meta
