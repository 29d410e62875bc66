// DeviceGuard: makes a device current for a scope and restores the previous one.
// A no-op for cpu and meta; a backend with a notion of "current device" (CUDA)
// installs a DeviceGuardImpl for its device type.
//
// check_same_device: the default device check of generated wrappers (operators
// without `device_check: NoCheck`): every defined tensor argument on one device.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>

#include "runtime/device.h"
#include "runtime/tensor.h"

namespace sops {

class DeviceGuardImpl {
 public:
  virtual ~DeviceGuardImpl() = default;
  // Makes `device` current and returns the device that was current.
  virtual Device exchange_device(Device device) = 0;
  // Makes `device` current again (from a destructor: must not throw).
  virtual void restore_device(Device device) noexcept = 0;
};

// The guard implementation for a device type, or nullptr (cpu, meta: nothing to do).
DeviceGuardImpl* get_device_guard_impl(DeviceType type);
// Installs one (not owned; must outlive its use); returns the previous one.
DeviceGuardImpl* set_device_guard_impl(DeviceType type, DeviceGuardImpl* impl);

class DeviceGuard {
 public:
  // (cpu has no guard: no lookup on its hot path.)
  explicit DeviceGuard(Device device)
      : impl_(device.is_cpu() ? nullptr : get_device_guard_impl(device.type())) {
    if (impl_ != nullptr) previous_ = impl_->exchange_device(device);
  }
  // No device (e.g. an absent optional tensor): does nothing.
  explicit DeviceGuard(std::optional<Device> device)
      : impl_(device ? get_device_guard_impl(device->type()) : nullptr) {
    if (impl_ != nullptr) previous_ = impl_->exchange_device(*device);
  }
  ~DeviceGuard() {
    if (impl_ != nullptr) impl_->restore_device(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  DeviceGuardImpl* impl_;
  Device previous_{DeviceType::CPU};
};

// The device of the first defined tensor, if any (what a generated guard uses).
inline std::optional<Device> device_of(const Tensor& t) {
  return t.defined() ? std::optional<Device>(t.device()) : std::nullopt;
}
inline std::optional<Device> device_of(const std::optional<Tensor>& t) {
  return t.has_value() ? device_of(*t) : std::nullopt;
}

// A tensor argument and its name, for check_same_device. Absent optionals and
// undefined tensors are skipped.
class NamedTensorRef {
 public:
  NamedTensorRef(std::string_view name, const Tensor& t) : name_(name), tensor_(&t) {}
  NamedTensorRef(std::string_view name, const std::optional<Tensor>& t)
      : name_(name), tensor_(t.has_value() ? &*t : nullptr) {}

  std::string_view name() const { return name_; }
  const Tensor* tensor() const { return tensor_; }

 private:
  std::string_view name_;
  const Tensor* tensor_;
};

// Throws sops::Error naming the operator and the first argument whose device
// differs from the first defined tensor's:
// "add.out: argument 'other': expected all tensors to be on the same device as
//  'self' (cpu), but got meta".
void check_same_device(std::string_view op, std::initializer_list<NamedTensorRef> tensors);

}  // namespace sops
