// The C++ types that operator signatures generated from native_functions.yaml use,
// as aliases onto the runtime's own types (PyTorch's names, so kernels read like
// ATen's). The generated <library>/Types.h brings them into the library namespace.
//
//   schema type      C++ type (native API)              structured API
//   SymInt           SymInt (= int64_t)                 int64_t
//   SymInt[]         SymIntArrayRef (= IntArrayRef)     IntArrayRef
//   int[1]?          OptionalIntArrayRef                OptionalIntArrayRef
//   Tensor[]         TensorList                         const ITensorListRef &
//   Tensor?[]        (as structured)                    IOptTensorListRef
//   Tensor?          const std::optional<Tensor> &      OptionalTensorRef
//   Scalar?          const std::optional<Scalar> &      OptionalScalarRef
//   float[]?         const std::optional<ArrayRef<double>> &
//   SymBool          SymBool (= bool)                   bool
//   DeviceIndex      DeviceIndex (= int16_t, device.h)
//   Layout, MemoryFormat, QScheme: the enums below.
//   Generator, Stream, Storage, DimVector, Reduction: generator.h, stream.h,
//   storage.h, small_vector.h, reduction.h (all included here).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/device.h"
#include "runtime/generator.h"
#include "runtime/reduction.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/small_vector.h"
#include "runtime/storage.h"
#include "runtime/stream.h"
#include "runtime/tensor.h"
#include "runtime/tensor_options.h"

namespace sops {

// How a tensor's elements are laid out (PyTorch's layouts). sops tensors are all
// Strided; the others name layouts that `Layout` arguments may ask for.
enum class Layout : int8_t {
  Strided,
  Sparse,
  SparseCsr,
  SparseCsc,
  SparseBsr,
  SparseBsc,
  Mkldnn,
  Jagged,
};

// The order of a dense tensor's dimensions in memory (PyTorch's memory_format).
// Preserve means "as the input's" and is only meaningful for *_like factories.
enum class MemoryFormat : int8_t {
  Contiguous,
  Preserve,
  ChannelsLast,
  ChannelsLast3d,
};

// How a quantized tensor maps integers to reals (PyTorch's QScheme). sops has no
// quantized tensors; the enum is for `QScheme` arguments.
enum class QScheme : int8_t {
  PER_TENSOR_AFFINE,
  PER_CHANNEL_AFFINE,
  PER_TENSOR_SYMMETRIC,
  PER_CHANNEL_SYMMETRIC,
  PER_CHANNEL_AFFINE_FLOAT_QPARAMS,
};

inline constexpr Layout kStrided = Layout::Strided;
inline constexpr Layout kSparse = Layout::Sparse;
inline constexpr Layout kSparseCsr = Layout::SparseCsr;
inline constexpr Layout kSparseCsc = Layout::SparseCsc;
inline constexpr Layout kSparseBsr = Layout::SparseBsr;
inline constexpr Layout kSparseBsc = Layout::SparseBsc;
inline constexpr Layout kMkldnn = Layout::Mkldnn;
inline constexpr Layout kJagged = Layout::Jagged;

inline constexpr QScheme kPerTensorAffine = QScheme::PER_TENSOR_AFFINE;
inline constexpr QScheme kPerChannelAffine = QScheme::PER_CHANNEL_AFFINE;
inline constexpr QScheme kPerTensorSymmetric = QScheme::PER_TENSOR_SYMMETRIC;
inline constexpr QScheme kPerChannelSymmetric = QScheme::PER_CHANNEL_SYMMETRIC;
inline constexpr QScheme kPerChannelAffineFloatQParams = QScheme::PER_CHANNEL_AFFINE_FLOAT_QPARAMS;

// PyTorch's spelling in messages (c10's operator<<): "Strided", "Sparse", "SparseCsr",
// ...; "Contiguous", "ChannelsLast", ...
constexpr std::string_view to_string(Layout layout) {
  switch (layout) {
    case Layout::Strided:
      return "Strided";
    case Layout::Sparse:
      return "Sparse";
    case Layout::SparseCsr:
      return "SparseCsr";
    case Layout::SparseCsc:
      return "SparseCsc";
    case Layout::SparseBsr:
      return "SparseBsr";
    case Layout::SparseBsc:
      return "SparseBsc";
    case Layout::Mkldnn:
      return "Mkldnn";
    case Layout::Jagged:
      return "Jagged";
  }
  return "Unknown";
}

constexpr std::string_view to_string(MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous:
      return "Contiguous";
    case MemoryFormat::Preserve:
      return "Preserve";
    case MemoryFormat::ChannelsLast:
      return "ChannelsLast";
    case MemoryFormat::ChannelsLast3d:
      return "ChannelsLast3d";
  }
  return "Unknown";
}

// PyTorch's names: "per_tensor_affine", "per_channel_affine", ...
constexpr std::string_view to_string(QScheme scheme) {
  switch (scheme) {
    case QScheme::PER_TENSOR_AFFINE:
      return "per_tensor_affine";
    case QScheme::PER_CHANNEL_AFFINE:
      return "per_channel_affine";
    case QScheme::PER_TENSOR_SYMMETRIC:
      return "per_tensor_symmetric";
    case QScheme::PER_CHANNEL_SYMMETRIC:
      return "per_channel_symmetric";
    case QScheme::PER_CHANNEL_AFFINE_FLOAT_QPARAMS:
      return "per_channel_affine_float_qparams";
  }
  return "unknown";
}

inline std::ostream& operator<<(std::ostream& os, Layout layout) { return os << to_string(layout); }
inline std::ostream& operator<<(std::ostream& os, MemoryFormat format) {
  return os << to_string(format);
}
inline std::ostream& operator<<(std::ostream& os, QScheme scheme) {
  return os << to_string(scheme);
}

// Symbolic integers and booleans are plain ones here (no tracing).
using SymInt = int64_t;
using SymBool = bool;
using SymIntArrayRef = IntArrayRef;
using OptionalIntArrayRef = std::optional<IntArrayRef>;
using OptionalSymIntArrayRef = OptionalIntArrayRef;
template <typename T>
using OptionalArrayRef = std::optional<ArrayRef<T>>;

// Lists of tensors.
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;
// `Tensor?[]` (index's indices, ...): passed by value; an element may be absent.
using IOptTensorListRef = ArrayRef<std::optional<Tensor>>;

// Optional arguments of the structured API, as parameter types.
using OptionalTensorRef = const std::optional<Tensor>&;
using OptionalScalarRef = const std::optional<Scalar>&;

}  // namespace sops
