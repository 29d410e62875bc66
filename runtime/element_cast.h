// Conversions between element types, with PyTorch's semantics: to bool is "!= 0",
// from bool is 0 or 1, 16-bit floats go through float, float to integral truncates (to
// uint8 through int64).
// load_as/store_as read and write one element whose dtype is known only at run time.
// convert is host+device: CUDA kernels convert by the same rules.
#pragma once

#include <cstdint>
#include <type_traits>

#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/host_device.h"
#include "runtime/scalar_type.h"

namespace sops {

template <typename To, typename From>
SOPS_HOST_DEVICE inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_reduced_float_v<From>) {
      return static_cast<float>(v) != 0.0f;
    } else {
      return v != From(0);
    }
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (is_reduced_float_v<To>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, uint8_t> && std::is_floating_point_v<From>) {
    // Through int64, as PyTorch: a negative float to uint8 is undefined in C++, and x86
    // wraps (-3.5 -> 253) where a GPU saturates (0); through a signed type both wrap.
    return static_cast<uint8_t>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

// Reads the element at p, of dtype `dtype`, as a T.
template <typename T>
inline T load_as(const void* p, ScalarType dtype) {
  switch (dtype) {
#define SOPS_CASE(cpp_type, name, str) \
  case ScalarType::name:               \
    return convert<T>(*static_cast<const cpp_type*>(p));
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
#define SOPS_CASE(size, name, str) case ScalarType::name:
    SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  SOPS_INTERNAL_ASSERT(false, "load_as on dtype ", dtype, ", which no tensor holds");
}

// Writes v, converted to `dtype`, at p.
template <typename T>
inline void store_as(void* p, ScalarType dtype, T v) {
  switch (dtype) {
#define SOPS_CASE(cpp_type, name, str)                 \
  case ScalarType::name:                               \
    *static_cast<cpp_type*>(p) = convert<cpp_type>(v); \
    return;
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
#define SOPS_CASE(size, name, str) case ScalarType::name:
    SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  SOPS_INTERNAL_ASSERT(false, "store_as on dtype ", dtype, ", which no tensor holds");
}

}  // namespace sops
