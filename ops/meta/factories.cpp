// empty.memory_format's Meta kernel: a tensor with sizes, strides and dtype and no memory.
#include "aten/ops/empty_native.h"
#include "ops/util/empty_utils.h"

namespace sops::aten::native {
using ops_util::make_empty;

Tensor empty_meta(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  SOPS_CHECK_ARG(!device.has_value() || device->is_meta(), "device",
                 "empty_meta: expected a meta device, got ", *device);
  return make_empty(size, dtype, layout, Device(DeviceType::Meta), pin_memory, memory_format);
}

}  // namespace sops::aten::native
