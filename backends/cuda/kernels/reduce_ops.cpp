// The CUDA impls of sum, mean, amax, amin, any and argmax: the meta functions (shared with
// the CPU) checked the arguments and sized out; these read the reduced dimensions as the
// CPU kernels do (backends/cpu/kernels/reduce_ops.cpp) and call the launchers (reduce_ops.cu),
// which dispatch on the same dtype sets with the same names, so that an unsupported dtype
// raises the CPU's error.
#include <cstdint>
#include <optional>

#include "aten/ops/amax_native.h"
#include "aten/ops/amin_native.h"
#include "aten/ops/any_native.h"
#include "aten/ops/argmax_native.h"
#include "aten/ops/mean_native.h"
#include "aten/ops/sum_native.h"
#include "backends/cuda/kernels/reduce_kernels.h"
#include "ops/util/op_utils.h"

namespace sops::aten::native {

SOPS_IMPL_FUNC(sum_out_cuda)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> /*dtype*/,
 const Tensor& out) {
  // dtype= already decided out's dtype (the meta function): elements convert to it.
  cuda::sum_kernel(self, ops_util::reduction_mask(dim, self.dim()), keepdim, out, /*mean=*/false,
                   "sum");
}

SOPS_IMPL_FUNC(mean_out_cuda)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> /*dtype*/,
 const Tensor& out) {
  cuda::sum_kernel(self, ops_util::reduction_mask(dim, self.dim()), keepdim, out, /*mean=*/true,
                   "mean");
}

SOPS_IMPL_FUNC(amax_out_cuda)
(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  cuda::minmax_kernel(self, ops_util::reduction_mask(dim, self.dim()), keepdim, out, /*max=*/true,
                      "amax");
}

SOPS_IMPL_FUNC(amin_out_cuda)
(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  cuda::minmax_kernel(self, ops_util::reduction_mask(dim, self.dim()), keepdim, out, /*max=*/false,
                      "amin");
}

SOPS_IMPL_FUNC(any_out_cuda)(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  const uint64_t mask = self.dim() == 0 ? 0 : uint64_t{1} << ops_util::wrap_dim(dim, self.dim());
  cuda::any_kernel(self, mask, keepdim, out);
}

SOPS_IMPL_FUNC(argmax_out_cuda)
(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  // Over one dimension, or without dim over the row-major flattened tensor (read through
  // its strides: no contiguous copy is needed on the device).
  const bool flatten = !dim.has_value() || self.dim() == 0;
  const int64_t d = dim.has_value() ? ops_util::wrap_dim(*dim, self.dim()) : 0;
  cuda::argmax_kernel(self, d, flatten, keepdim, out);
}

}  // namespace sops::aten::native
