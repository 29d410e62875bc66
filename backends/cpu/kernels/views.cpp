// view: the same storage seen with other sizes, when strides exist that make that
// possible without copying; as_strided: any sizes, strides and offset within the storage
// (both registered for CPU and Meta: they touch no data); resize_: new sizes in place,
// the storage grown to hold them.
#include <optional>

#include "aten/ops/as_strided_native.h"
#include "aten/ops/resize_native.h"
#include "aten/ops/view_native.h"
#include "ops/util/op_utils.h"
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
  for (std::size_t d = 0; d < size.size(); ++d) {
    SOPS_CHECK_ARG(size[d] >= 0, "size", "Trying to create tensor with negative dimension ",
                   size[d], ": ", size);
  }
  const int64_t itemsize = static_cast<int64_t>(self.element_size());
  // The furthest element, checked: a model's strides may take it past int64.
  const int64_t last = checked_max_offset(size, stride, offset, "stride");
  if (last >= offset) needed = checked_mul(last + 1, itemsize, "storage size in bytes", "stride");
  const int64_t available = static_cast<int64_t>(self.storage().nbytes());
  SOPS_CHECK_ARG(needed <= available, "size", "setStorage: sizes ", size, ", strides ", stride,
                 ", storage offset ", offset, ", and itemsize ", itemsize,
                 " requiring a storage size of ", needed, " are out of bounds for storage of size ",
                 available);
  return self.as_strided(size, stride, offset);
}

// PyTorch's resize_: sizes unchanged keep self's strides; new ones are contiguous, the
// storage growing (its new elements uninitialized) but never shrinking; a memory format
// then lays the sizes out again (channels_last for 4 dimensions, channels_last_3d for 5).
const Tensor& resize_(const Tensor& self, IntArrayRef size,
                      std::optional<MemoryFormat> memory_format) {
  for (const int64_t s : size) {
    SOPS_CHECK_ARG(s >= 0, "size", "numel: integer multiplication overflow: size ", size,
                   " has a negative dimension");
  }
  SOPS_CHECK_ARG(memory_format != MemoryFormat::Preserve, "memory_format",
                 "Unsupported memory format", MemoryFormat::Preserve);
  self.resize_(size);
  if (!memory_format.has_value()) return self;
  switch (*memory_format) {
    case MemoryFormat::ChannelsLast:
      SOPS_CHECK_ARG(size.size() == 4, "memory_format",
                     "required rank 4 tensor to use channels_last format");
      break;
    case MemoryFormat::ChannelsLast3d:
      SOPS_CHECK_ARG(size.size() == 5, "memory_format",
                     "required rank 5 tensor to use channels_last_3d format");
      break;
    default:
      return self.as_strided_(size, contiguous_strides(size), self.storage_offset());
  }
  return self.as_strided_(size, ops_util::channels_last_strides(size), self.storage_offset());
}

}  // namespace sops::aten::native
