#include "runtime/static_dispatch.h"

#include <string>

namespace sops {

void throw_mixed_devices(std::string_view op, uint8_t device_mask) {
  std::string found;
  for (int bit = 0; bit < kNumDeviceTypes; ++bit) {
    if (((device_mask >> bit) & 1u) == 0) continue;
    if (!found.empty()) found += " and ";
    found += to_string(static_cast<DeviceType>(bit));
  }
  raise(Error(
      detail::str("expected all tensors to be on the same device, but found tensors on ", found),
      {}, std::string(op)));
}

void throw_no_kernel(std::string_view op, DispatchKey key, std::string_view registered) {
  raise(Error(detail::str("no kernel for dispatch key ", to_string(key),
                          "; registered: ", registered.empty() ? "none" : registered),
              {}, std::string(op)));
}

}  // namespace sops
