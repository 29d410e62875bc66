// Meta functions of _softmax and _log_softmax (structured): the output has self's sizes,
// contiguous, in self's dtype (float32 with half_to_float, which the CPU kernels refuse,
// as PyTorch's do).
#include "aten/ops/_log_softmax_meta.h"
#include "aten/ops/_softmax_meta.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {
namespace {

void softmax_meta(MetaBase& meta, const Tensor& input, int64_t dim, bool half_to_float) {
  const int64_t wrapped = ops_util::wrap_dim(dim, input.dim());
  SOPS_CHECK_ARG(wrapped >= 0 && wrapped < (input.dim() > 0 ? input.dim() : 1), "dim",
                 "dim must be non-negative and less than input dimensions");
  TensorOptions options = input.options();
  if (half_to_float) options = options.dtype(ScalarType::Float);
  meta.set_output_raw_strided(0, input.sizes(), {}, options);
}

}  // namespace

SOPS_META_FUNC(_softmax)(const Tensor& self, int64_t dim, bool half_to_float) {
  softmax_meta(*this, self, dim, half_to_float);
}

SOPS_META_FUNC(_log_softmax)(const Tensor& self, int64_t dim, bool half_to_float) {
  softmax_meta(*this, self, dim, half_to_float);
}

}  // namespace sops::aten::meta
