// view: the same storage seen with other sizes, when strides exist that make that
// possible without copying; as_strided: any sizes, strides and offset within the storage
// (both registered for CPU and Meta: they touch no data).
#include <optional>

#include "aten/ops/as_strided_native.h"
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

// PyTorch's checks (setStrided, checkInBoundsForStorage), with its messages.
Tensor as_strided_tensorimpl(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                             std::optional<int64_t> storage_offset) {
  SOPS_CHECK_ARG(size.size() == stride.size(), "stride", "mismatch in length of strides and shape");
  for (const int64_t s : stride) {
    SOPS_CHECK_ARG(
        s >= 0, "stride",
        "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
  }
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  SOPS_CHECK_ARG(offset >= 0, "storage_offset", "Tensor: invalid storage offset ", offset);
  int64_t needed = 0;  // bytes, as PyTorch's computeStorageNbytes
  bool empty_view = false;
  int64_t last = 0;
  for (std::size_t d = 0; d < size.size(); ++d) {
    SOPS_CHECK_ARG(size[d] >= 0, "size", "Trying to create tensor with negative dimension ",
                   size[d], ": ", size);
    if (size[d] == 0) empty_view = true;
    last += (size[d] - 1) * stride[d];
  }
  const int64_t itemsize = static_cast<int64_t>(self.element_size());
  if (!empty_view) needed = (offset + last + 1) * itemsize;
  const int64_t available = static_cast<int64_t>(self.storage().nbytes());
  SOPS_CHECK_ARG(needed <= available, "size", "setStorage: sizes ", size, ", strides ", stride,
                 ", storage offset ", offset, ", and itemsize ", itemsize,
                 " requiring a storage size of ", needed, " are out of bounds for storage of size ",
                 available);
  return self.as_strided(size, stride, offset);
}

}  // namespace sops::aten::native
