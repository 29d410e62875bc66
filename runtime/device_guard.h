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

// The device a generated guard makes current: a defined tensor's, a list's first defined
// tensor's, or a factory's `device` argument; none (no guard) otherwise.
inline std::optional<Device> device_of(const Tensor& t) {
  return t.defined() ? std::optional<Device>(t.device()) : std::nullopt;
}
inline std::optional<Device> device_of(const std::optional<Tensor>& t) {
  return t.has_value() ? device_of(*t) : std::nullopt;
}
template <typename T>  // Tensor or std::optional<Tensor>
std::optional<Device> device_of(ArrayRef<T> tensors) {
  for (const T& t : tensors) {
    if (std::optional<Device> d = device_of(t)) return d;
  }
  return std::nullopt;
}
inline std::optional<Device> device_of(std::optional<Device> device) { return device; }
inline std::optional<Device> device_of(Device device) { return device; }

// A tensor-like argument and its name, for check_same_device: one tensor (absent
// optionals and undefined tensors are skipped) or a list (`Tensor[]`, `Tensor?[]`).
class NamedTensorRef {
 public:
  NamedTensorRef(std::string_view name, const Tensor& t) : name_(name), tensors_(&t, 1) {}
  NamedTensorRef(std::string_view name, const std::optional<Tensor>& t)
      : name_(name), optionals_(&t, 1) {}
  NamedTensorRef(std::string_view name, ArrayRef<Tensor> tensors)
      : name_(name), tensors_(tensors), list_(true) {}
  NamedTensorRef(std::string_view name, ArrayRef<std::optional<Tensor>> tensors)
      : name_(name), optionals_(tensors), list_(true) {}

  std::string_view name() const { return name_; }
  bool is_list() const { return list_; }
  std::size_t size() const { return tensors_.size() + optionals_.size(); }
  // The i-th tensor, or nullptr where an optional is absent.
  const Tensor* at(std::size_t i) const {
    if (!optionals_.empty()) return optionals_[i].has_value() ? &*optionals_[i] : nullptr;
    return &tensors_[i];
  }

 private:
  std::string_view name_;
  ArrayRef<Tensor> tensors_;
  ArrayRef<std::optional<Tensor>> optionals_;
  bool list_ = false;
};

// Throws sops::Error naming the operator and the first argument whose device
// differs from the first defined tensor's:
// "add.out: argument 'other': expected all tensors to be on the same device as
//  'self' (cpu), but got meta"; an element of a list is named by its index
// ("argument 'tensors': ... as 'tensors[0]' (cuda:0), but got cpu at tensors[2]").
void check_same_device(std::string_view op, std::initializer_list<NamedTensorRef> tensors);

}  // namespace sops
