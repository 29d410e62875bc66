// Stream: a queue of work on one device (PyTorch's c10::Stream), as a value: the
// device and an id, 0 being the device's default stream. sops runs cpu work in order
// on the calling thread, so a cpu stream names that order and nothing more; the value
// is what `Stream` arguments of native_functions.yaml pass.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>

#include "runtime/device.h"

namespace sops {

class Stream {
 public:
  using Id = int64_t;

  constexpr explicit Stream(Device device, Id id = 0) : device_(device), id_(id) {}

  constexpr Device device() const { return device_; }
  constexpr DeviceType device_type() const { return device_.type(); }
  constexpr DeviceIndex device_index() const { return device_.index(); }
  constexpr Id id() const { return id_; }

  constexpr bool operator==(const Stream& other) const {
    return device_ == other.device_ && id_ == other.id_;
  }
  constexpr bool operator!=(const Stream& other) const { return !(*this == other); }

 private:
  Device device_;
  Id id_;
};

// The stream work on `device` goes to unless told otherwise (id 0).
constexpr Stream default_stream(Device device) { return Stream(device, 0); }

// PyTorch's form: "stream 0 on device cpu".
inline std::ostream& operator<<(std::ostream& os, const Stream& s) {
  return os << "stream " << s.id() << " on device " << s.device();
}

}  // namespace sops

template <>
struct std::hash<sops::Stream> {
  std::size_t operator()(const sops::Stream& s) const noexcept {
    return std::hash<sops::Device>()(s.device()) ^ (std::hash<int64_t>()(s.id()) << 1);
  }
};
