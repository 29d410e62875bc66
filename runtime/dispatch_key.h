// DispatchKey: the slots of an operator's kernel table, as codegen/dispatch_keys.bzl lists
// them (the generator and the rules read that table; //tests/generated:dispatch_keys_test
// holds this enum to it).
//
// Backend keys (CPU, CUDA, Meta) are chosen from the devices of the tensor
// arguments; the others are fallbacks tried in this order when a backend has no
// kernel of its own:
//   backend -> Common -> CompositeExplicitAutograd -> CompositeImplicitAutograd
// Common is the RFC's generic path for external backends (shape checks, output
// allocation, then the backend's out kernel); a backend opts out of it with a
// fallthrough (see dispatcher.h).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "runtime/device.h"

namespace sops {

enum class DispatchKey : uint8_t {
  CPU = 0,
  CUDA = 1,
  Meta = 2,
  Common = 3,
  CompositeExplicitAutograd = 4,
  CompositeImplicitAutograd = 5,
};

inline constexpr int kNumDispatchKeys = 6;
inline constexpr int kNumBackendKeys = 3;

constexpr bool is_backend_key(DispatchKey k) { return static_cast<int>(k) < kNumBackendKeys; }

// The backend key of tensors on a device type (same numbering as DeviceType).
constexpr DispatchKey backend_key(DeviceType t) {
  return static_cast<DispatchKey>(static_cast<uint8_t>(t));
}

// The keys tried for a backend, in order.
inline constexpr DispatchKey kFallbackKeys[] = {DispatchKey::Common,
                                                DispatchKey::CompositeExplicitAutograd,
                                                DispatchKey::CompositeImplicitAutograd};

constexpr std::string_view to_string(DispatchKey k) {
  switch (k) {
    case DispatchKey::CPU:
      return "CPU";
    case DispatchKey::CUDA:
      return "CUDA";
    case DispatchKey::Meta:
      return "Meta";
    case DispatchKey::Common:
      return "Common";
    case DispatchKey::CompositeExplicitAutograd:
      return "CompositeExplicitAutograd";
    case DispatchKey::CompositeImplicitAutograd:
      return "CompositeImplicitAutograd";
  }
  return "Unknown";
}

// The key named as in native_functions.yaml's dispatch section ("CPU", "Meta", ...).
constexpr std::optional<DispatchKey> parse_dispatch_key(std::string_view name) {
  for (int i = 0; i < kNumDispatchKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    if (to_string(k) == name) return k;
  }
  return std::nullopt;
}

inline std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << to_string(k); }

}  // namespace sops
