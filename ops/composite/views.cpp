// permute: a view with the dimensions reordered (CompositeExplicitAutograd: works on
// every device, since it only rearranges sizes and strides).
#include "aten/ops/permute_native.h"
#include "ops/util/op_utils.h"

namespace sops::aten::native {

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t ndim = self.dim();
  SOPS_CHECK_ARG(static_cast<int64_t>(dims.size()) == ndim, "dims",
                 "permute(sparse_coo): number of dimensions in the tensor input does not match "
                 "the length of the desired ordering of dimensions i.e. input.dim() = ",
                 ndim, " is not equal to len(dims) = ", dims.size());
  DimVector sizes(static_cast<std::size_t>(ndim));
  DimVector strides(static_cast<std::size_t>(ndim));
  uint64_t seen = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = ops_util::wrap_dim(dims[i], ndim, "dims");
    const uint64_t bit = uint64_t{1} << d;
    SOPS_CHECK_ARG((seen & bit) == 0, "dims", "permute(): duplicate dims are not allowed.");
    seen |= bit;
    sizes[i] = self.size(d);
    strides[i] = self.stride(d);
  }
  return self.as_strided(sizes, strides);
}

}  // namespace sops::aten::native
