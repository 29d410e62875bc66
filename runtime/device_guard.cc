#include "runtime/device_guard.h"

#include <array>
#include <atomic>
#include <string>

#include "runtime/error.h"

namespace sops {
namespace {

std::array<std::atomic<DeviceGuardImpl*>, kNumDeviceTypes>& guard_registry() {
  static std::array<std::atomic<DeviceGuardImpl*>, kNumDeviceTypes> impls{};
  return impls;
}

}  // namespace

DeviceGuardImpl* get_device_guard_impl(DeviceType type) {
  return guard_registry()[static_cast<std::size_t>(type)].load(std::memory_order_acquire);
}

DeviceGuardImpl* set_device_guard_impl(DeviceType type, DeviceGuardImpl* impl) {
  return guard_registry()[static_cast<std::size_t>(type)].exchange(impl,
                                                                   std::memory_order_acq_rel);
}

void check_same_device(std::string_view op, std::initializer_list<NamedTensorRef> tensors) {
  const NamedTensorRef* first = nullptr;
  for (const NamedTensorRef& ref : tensors) {
    if (ref.tensor() == nullptr || !ref.tensor()->defined()) continue;
    if (first == nullptr) {
      first = &ref;
      continue;
    }
    const Device expected = first->tensor()->device();
    const Device got = ref.tensor()->device();
    if (SOPS_LIKELY(devices_compatible(expected, got))) continue;
    raise(Error(detail::str("expected all tensors to be on the same device as '", first->name(),
                            "' (", expected.str(), "), but got ", got.str()),
                std::string(ref.name()), std::string(op)));
  }
}

}  // namespace sops
