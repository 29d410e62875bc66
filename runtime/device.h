// DeviceType and Device: where a tensor's data lives. Meta tensors live nowhere:
// they carry sizes, strides and dtype but no data.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace sops {

enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  Meta = 2,
};

inline constexpr int kNumDeviceTypes = 3;

inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;
inline constexpr DeviceType kMeta = DeviceType::Meta;

// "cpu", "cuda", "meta".
constexpr std::string_view to_string(DeviceType t) {
  switch (t) {
    case DeviceType::CPU:
      return "cpu";
    case DeviceType::CUDA:
      return "cuda";
    case DeviceType::Meta:
      return "meta";
  }
  return "unknown";
}

inline std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << to_string(t); }

// A device type and an index (-1: "the current one", as for "cuda" without ":n").
class Device {
 public:
  using Index = int16_t;

  constexpr Device(DeviceType type, Index index = -1)  // NOLINT: Device d = kCPU reads well
      : type_(type), index_(index) {}
  // Parses "cpu", "meta", "cuda", "cuda:1"; throws sops::Error on anything else.
  explicit Device(std::string_view text);

  constexpr DeviceType type() const { return type_; }
  constexpr Index index() const { return index_; }
  constexpr bool has_index() const { return index_ >= 0; }
  constexpr bool is_cpu() const { return type_ == DeviceType::CPU; }
  constexpr bool is_cuda() const { return type_ == DeviceType::CUDA; }
  constexpr bool is_meta() const { return type_ == DeviceType::Meta; }

  constexpr bool operator==(const Device& other) const {
    return type_ == other.type_ && index_ == other.index_;
  }
  constexpr bool operator!=(const Device& other) const { return !(*this == other); }

  // "cpu", "cuda:0", "meta".
  std::string str() const;

 private:
  DeviceType type_;
  Index index_;
};

inline std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

// Whether tensors on a and b may be used together: same type, and the same index
// when both have one.
constexpr bool devices_compatible(Device a, Device b) {
  return a.type() == b.type() && (!a.has_index() || !b.has_index() || a.index() == b.index());
}

// The schema type DeviceIndex (PyTorch's c10::DeviceIndex): -1 or a device's index.
using DeviceIndex = Device::Index;

}  // namespace sops

template <>
struct std::hash<sops::Device> {
  std::size_t operator()(const sops::Device& d) const noexcept {
    return (static_cast<std::size_t>(d.type()) << 16) ^ static_cast<uint16_t>(d.index());
  }
};
