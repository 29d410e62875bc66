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
  return guard_registry()[static_cast<std::size_t>(type)].exchange(impl, std::memory_order_acq_rel);
}

void check_same_device(std::string_view op, std::initializer_list<NamedTensorRef> tensors) {
  // The first defined tensor (its argument and index) sets the device; names are built
  // only for the error ("self", "tensors[0]").
  const NamedTensorRef* first = nullptr;
  std::size_t first_index = 0;
  Device expected(DeviceType::CPU);
  const auto name_at = [](const NamedTensorRef& ref, std::size_t i) {
    return ref.is_list() ? detail::str(ref.name(), "[", i, "]") : std::string(ref.name());
  };
  for (const NamedTensorRef& ref : tensors) {
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const Tensor* t = ref.at(i);
      if (t == nullptr || !t->defined()) continue;
      if (first == nullptr) {
        first = &ref;
        first_index = i;
        expected = t->device();
        continue;
      }
      const Device got = t->device();
      if (SOPS_LIKELY(devices_compatible(expected, got))) continue;
      raise(Error(detail::str("expected all tensors to be on the same device as '",
                              name_at(*first, first_index), "' (", expected.str(), "), but got ",
                              got.str(), ref.is_list() ? " at " + name_at(ref, i) : ""),
                  std::string(ref.name()), std::string(op)));
    }
  }
}

}  // namespace sops
