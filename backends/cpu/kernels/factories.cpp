// empty.memory_format's CPU kernel: uninitialized memory of the requested sizes and
// layout; empty_strided (CPU and Meta). (Its Meta kernel is in ops/meta/factories.cpp; the factory
// composites over it, empty_like, full, zeros, ..., in ops/composite/factories.cpp.)
#include "aten/ops/empty_native.h"
#include "aten/ops/empty_strided_native.h"
#include "ops/util/empty_utils.h"

namespace sops::aten::native {
using ops_util::make_empty;

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  SOPS_CHECK_ARG(!device.has_value() || device->is_cpu(), "device",
                 "empty_cpu: expected a cpu device, got ", *device);
  return make_empty(size, dtype, layout, Device(DeviceType::CPU), pin_memory, memory_format);
}

// Uninitialized memory laid out by `stride` (registered for CPU and Meta): a storage
// that holds the furthest element the strides reach.
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                     std::optional<Layout> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  SOPS_CHECK_ARG(size.size() == stride.size(), "stride", "mismatch in length of strides and shape");
  for (std::size_t d = 0; d < size.size(); ++d) {
    SOPS_CHECK_ARG(size[d] >= 0, "size", "Trying to create tensor with negative dimension ",
                   size[d], ": ", size);
    SOPS_CHECK_ARG(
        stride[d] >= 0, "stride",
        "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
  }
  // The furthest element, checked: a model's strides may take it past int64 (-1 for a
  // tensor with no element).
  const int64_t numel = checked_max_offset(size, stride, 0, "stride") + 1;
  Tensor storage = make_empty({numel}, dtype, layout, device.value_or(Device(DeviceType::CPU)),
                              pin_memory, std::nullopt);
  return storage.as_strided(size, stride, 0);
}

}  // namespace sops::aten::native
