// empty.memory_format for CUDA (`CUDA: empty_cuda`): memory from the caching allocator
// the CUDA backend registered (cuda_backend.h), on the requested device or the current.
#include "aten/ops/empty_native.h"
#include "ops/util/empty_utils.h"

namespace sops::aten::native {

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  SOPS_CHECK_ARG(!device.has_value() || device->is_cuda(), "device",
                 "empty_cuda: expected a cuda device, got ", *device);
  return ops_util::make_empty(size, dtype, layout, device.value_or(Device(kCUDA)), pin_memory,
                              memory_format);
}

}  // namespace sops::aten::native
