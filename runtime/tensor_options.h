// TensorOptions: the dtype and device of a tensor to make. Fluent and immutable:
//   sops::TensorOptions().dtype(sops::kLong).device(sops::kMeta)
// or from the free functions sops::dtype(...) / sops::device(...). Defaults: float32
// on cpu. Converts implicitly from a ScalarType, a Device or a DeviceType.
#pragma once

#include <ostream>

#include "runtime/device.h"
#include "runtime/scalar_type.h"

namespace sops {

class TensorOptions {
 public:
  constexpr TensorOptions() = default;
  constexpr TensorOptions(ScalarType dtype) : dtype_(dtype) {}  // NOLINT
  constexpr TensorOptions(Device device) : device_(device) {}   // NOLINT
  constexpr TensorOptions(DeviceType type) : device_(type) {}   // NOLINT

  constexpr ScalarType dtype() const { return dtype_; }
  constexpr Device device() const { return device_; }
  constexpr DeviceType device_type() const { return device_.type(); }

  // A copy with the dtype (device) replaced.
  constexpr TensorOptions dtype(ScalarType dtype) const {
    TensorOptions o = *this;
    o.dtype_ = dtype;
    return o;
  }
  constexpr TensorOptions device(Device device) const {
    TensorOptions o = *this;
    o.device_ = device;
    return o;
  }

  constexpr bool operator==(const TensorOptions& other) const {
    return dtype_ == other.dtype_ && device_ == other.device_;
  }
  constexpr bool operator!=(const TensorOptions& other) const { return !(*this == other); }

 private:
  ScalarType dtype_ = ScalarType::Float;
  Device device_{DeviceType::CPU};
};

constexpr TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
constexpr TensorOptions device(Device d) { return TensorOptions().device(d); }

inline std::ostream& operator<<(std::ostream& os, const TensorOptions& o) {
  return os << "TensorOptions(dtype=" << o.dtype() << ", device=" << o.device() << ")";
}

}  // namespace sops
