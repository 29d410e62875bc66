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

std::optional<Device> device_of(ArrayRef<Tensor> tensors) {
  for (const Tensor& t : tensors) {
    if (t.defined()) return t.device();
  }
  return std::nullopt;
}

std::optional<Device> device_of(ArrayRef<std::optional<Tensor>> tensors) {
  for (const std::optional<Tensor>& t : tensors) {
    if (t.has_value() && t->defined()) return t->device();
  }
  return std::nullopt;
}

void check_same_device(std::string_view op, std::initializer_list<NamedTensorRef> tensors) {
  // The first defined tensor, and how the message names it ("self", "tensors[0]").
  const Tensor* first = nullptr;
  std::string first_name;
  for (const NamedTensorRef& ref : tensors) {
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const Tensor* t = ref.at(i);
      if (t == nullptr || !t->defined()) continue;
      if (first == nullptr) {
        first = t;
        first_name = ref.is_list() ? detail::str(ref.name(), "[", i, "]") : std::string(ref.name());
        continue;
      }
      const Device expected = first->device();
      const Device got = t->device();
      if (SOPS_LIKELY(devices_compatible(expected, got))) continue;
      raise(Error(detail::str("expected all tensors to be on the same device as '", first_name,
                              "' (", expected.str(), "), but got ", got.str(),
                              ref.is_list() ? detail::str(" at ", ref.name(), "[", i, "]") : ""),
                  std::string(ref.name()), std::string(op)));
    }
  }
}

}  // namespace sops
