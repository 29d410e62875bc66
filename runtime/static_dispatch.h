// Static dispatch: which backend a call's arguments select, by the dispatcher's own
// rule, for code that switches on it and calls a backend's kernel directly.
//
// The generated dispatcher API of a library built with `static_dispatch = True`
// (`generate --static-dispatch`) is, per operator,
//   switch (sops::dispatch_key_of("add.Tensor", self, other, alpha)) {
//     case sops::DispatchKey::CPU: return my::ops::cpu::add(self, other, alpha);
//     ...
//     default: sops::throw_no_kernel("add.Tensor", key, "CPU, Meta");
//   }
// and links no dispatcher. The rule (dispatcher.h's TypedOperatorHandle::call uses the
// same collect functions): the device of the Tensor, Tensor? and Tensor[] arguments;
// with none, that of the TensorOptions and Device arguments; with none either, CPU.
// Tensors (or, without tensors, options) on two device types are an error naming the
// operator and both devices, except for operators with `device_check: NoCheck` (copy_,
// the element-wise ops that take a cpu scalar), whose calls go through
// dispatch_key_of_across_devices: cpu and one other device type select the other
// device's kernel, which decides what it accepts (a copy between devices; a 0-dim cpu
// tensor as a scalar), as PyTorch's dispatcher gives CUDA precedence over CPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/array_ref.h"
#include "runtime/call_observer.h"
#include "runtime/device.h"
#include "runtime/dispatch_key.h"
#include "runtime/error.h"
#include "runtime/tensor.h"
#include "runtime/tensor_options.h"

namespace sops {
namespace detail {

// Which devices the arguments of a call live on, as bit masks over DeviceType.
struct DeviceMask {
  uint8_t tensors = 0;
  uint8_t options = 0;
};

inline void collect(DeviceMask& m, const Tensor& t) {
  if (t.defined())
    m.tensors |= static_cast<uint8_t>(1u << static_cast<unsigned>(t.device().type()));
}
inline void collect(DeviceMask& m, const std::optional<Tensor>& t) {
  if (t.has_value()) collect(m, *t);
}
inline void collect(DeviceMask& m, ArrayRef<Tensor> ts) {
  for (const Tensor& t : ts) collect(m, t);
}
inline void collect(DeviceMask& m, const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) collect(m, t);
}
inline void collect(DeviceMask& m, Device d) {
  m.options |= static_cast<uint8_t>(1u << static_cast<unsigned>(d.type()));
}
inline void collect(DeviceMask& m, const std::optional<Device>& d) {
  if (d.has_value()) collect(m, *d);
}
inline void collect(DeviceMask& m, const TensorOptions& o) { collect(m, o.device()); }
template <typename T>
inline void collect(DeviceMask& /*m*/, const T& /*value*/) {}

}  // namespace detail

// "expected all tensors to be on the same device, but found tensors on cpu and cuda",
// for operator `op` ("add.Tensor"); `device_mask` has a bit per DeviceType.
[[noreturn]] void throw_mixed_devices(std::string_view op, uint8_t device_mask);
// "no kernel for dispatch key CUDA; registered: CPU, Meta", for operator `op`.
[[noreturn]] void throw_no_kernel(std::string_view op, DispatchKey key,
                                  std::string_view registered);

// The backend key (CPU, CUDA or Meta) a call of `op` with these arguments selects.
template <typename... Args>
inline DispatchKey dispatch_key_of(std::string_view op, const Args&... args) {
  if (const CallObserver observer = detail::g_call_observer.load(std::memory_order_relaxed);
      SOPS_UNLIKELY(observer != nullptr)) {
    observer(op, 0);
  }
  detail::DeviceMask mask;
  (detail::collect(mask, args), ...);
  const uint8_t m = mask.tensors != 0 ? mask.tensors : mask.options;
  if (m == 0) return DispatchKey::CPU;
  if (SOPS_UNLIKELY((m & (m - 1)) != 0)) throw_mixed_devices(op, m);
  return static_cast<DispatchKey>(__builtin_ctz(m));
}

namespace detail {
// The device types of `m` with cpu's bit dropped when exactly one other type is there.
constexpr uint8_t across_devices(uint8_t m) {
  constexpr auto kCpuBit = static_cast<uint8_t>(1u << static_cast<unsigned>(DeviceType::CPU));
  const uint8_t others = static_cast<uint8_t>(m & ~kCpuBit);
  return others != 0 && (others & (others - 1)) == 0 ? others : m;
}
}  // namespace detail

// dispatch_key_of for operators with `device_check: NoCheck`: cpu tensors beside those
// of one other device type select that device's kernel.
template <typename... Args>
inline DispatchKey dispatch_key_of_across_devices(std::string_view op, const Args&... args) {
  if (const CallObserver observer = detail::g_call_observer.load(std::memory_order_relaxed);
      SOPS_UNLIKELY(observer != nullptr)) {
    observer(op, 0);
  }
  detail::DeviceMask mask;
  (detail::collect(mask, args), ...);
  const uint8_t m = detail::across_devices(mask.tensors != 0 ? mask.tensors : mask.options);
  if (m == 0) return DispatchKey::CPU;
  if (SOPS_UNLIKELY((m & (m - 1)) != 0)) throw_mixed_devices(op, m);
  return static_cast<DispatchKey>(__builtin_ctz(m));
}

}  // namespace sops
