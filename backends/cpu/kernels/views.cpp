// view: the same storage seen with other sizes, when strides exist that make that
// possible without copying (registered for CPU and Meta: it touches no data).
#include <optional>

#include "aten/ops/view_native.h"
#include "ops/util/view_utils.h"
#include "runtime/small_vector.h"

namespace sops::aten::native {

Tensor view(const Tensor& self, IntArrayRef size) {
  const DimVector sizes = ops_util::infer_size(size, self.numel());
  const std::optional<DimVector> strides =
      ops_util::view_strides(self.sizes(), self.strides(), sizes);
  SOPS_CHECK_ARG(strides.has_value(), "self",
                 "view size is not compatible with input tensor's size and stride (at least one "
                 "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return self.as_strided(sizes, *strides, self.storage_offset());
}

}  // namespace sops::aten::native
