// The C++ types that operator signatures generated from native_functions.yaml use,
// as aliases onto the runtime's own types (PyTorch's names, so kernels read like
// ATen's). The generated <library>/Types.h brings them into the library namespace.
//
//   schema type      C++ type (native API)              structured API
//   SymInt           SymInt (= int64_t)                 int64_t
//   SymInt[]         SymIntArrayRef (= IntArrayRef)     IntArrayRef
//   int[1]?          OptionalIntArrayRef                OptionalIntArrayRef
//   Tensor[]         TensorList                         const ITensorListRef &
//   Tensor?          const std::optional<Tensor> &      OptionalTensorRef
//   Scalar?          const std::optional<Scalar> &      OptionalScalarRef
//   float[]?         const std::optional<ArrayRef<double>> &
//   Layout, MemoryFormat: the enums below.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/device.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"
#include "runtime/tensor_options.h"

namespace sops {

// How a tensor's elements are laid out. sops has dense strided tensors only.
enum class Layout : int8_t {
  Strided,
};

// The order of a dense tensor's dimensions in memory (PyTorch's memory_format).
// Preserve means "as the input's" and is only meaningful for *_like factories.
enum class MemoryFormat : int8_t {
  Contiguous,
  Preserve,
  ChannelsLast,
  ChannelsLast3d,
};

inline constexpr Layout kStrided = Layout::Strided;

// PyTorch's spelling in messages: "Strided"; "Contiguous", "ChannelsLast", ...
constexpr std::string_view to_string(Layout layout) {
  switch (layout) {
    case Layout::Strided: return "Strided";
  }
  return "Unknown";
}

constexpr std::string_view to_string(MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return "Contiguous";
    case MemoryFormat::Preserve: return "Preserve";
    case MemoryFormat::ChannelsLast: return "ChannelsLast";
    case MemoryFormat::ChannelsLast3d: return "ChannelsLast3d";
  }
  return "Unknown";
}

inline std::ostream& operator<<(std::ostream& os, Layout layout) { return os << to_string(layout); }
inline std::ostream& operator<<(std::ostream& os, MemoryFormat format) {
  return os << to_string(format);
}

// Symbolic integers are plain integers here (no tracing).
using SymInt = int64_t;
using SymIntArrayRef = IntArrayRef;
using OptionalIntArrayRef = std::optional<IntArrayRef>;
using OptionalSymIntArrayRef = OptionalIntArrayRef;
template <typename T>
using OptionalArrayRef = std::optional<ArrayRef<T>>;

// Lists of tensors.
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;

// Optional arguments of the structured API, as parameter types.
using OptionalTensorRef = const std::optional<Tensor>&;
using OptionalScalarRef = const std::optional<Scalar>&;

}  // namespace sops
