// empty.memory_format's CPU kernel: uninitialized memory of the requested sizes and
// layout. (Its Meta kernel is in ops/meta/factories.cpp; the factory composites over it,
// empty_like, full, zeros, ..., in ops/composite/factories.cpp.)
#include "aten/ops/empty_native.h"
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

}  // namespace sops::aten::native
