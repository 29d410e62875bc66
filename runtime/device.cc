#include "runtime/device.h"

#include <charconv>

#include "runtime/error.h"

namespace sops {

Device::Device(std::string_view text) : type_(DeviceType::CPU), index_(-1) {
  std::string_view type_part = text;
  std::string_view index_part;
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    type_part = text.substr(0, colon);
    index_part = text.substr(colon + 1);
  }
  if (type_part == "cpu") {
    type_ = DeviceType::CPU;
  } else if (type_part == "cuda") {
    type_ = DeviceType::CUDA;
  } else if (type_part == "meta") {
    type_ = DeviceType::Meta;
  } else {
    raise(Error(detail::str("unknown device '", text, "' (expected cpu, cuda, cuda:N or meta)")));
  }
  if (text.find(':') != std::string_view::npos) {
    int value = -1;
    const auto* end = index_part.data() + index_part.size();
    const auto [ptr, ec] = std::from_chars(index_part.data(), end, value);
    SOPS_CHECK(
        ec == std::errc() && ptr == end && !index_part.empty() && value >= 0 && value <= 32767,
        "invalid device index in '", text, "' (expected a non-negative integer)");
    index_ = static_cast<Index>(value);
  }
}

std::string Device::str() const {
  std::string s(to_string(type_));
  if (has_index()) {
    s += ':';
    s += std::to_string(index_);
  }
  return s;
}

}  // namespace sops
