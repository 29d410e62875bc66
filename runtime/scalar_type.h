// ScalarType: the element types a tensor can hold, their sizes and names, and
// PyTorch's type promotion lattice over them.
//
// The set is PyTorch's minus int16 and the complex and quantized types. One pair of
// our types promotes, in PyTorch, to a type outside the set: uint8 with int8 gives
// int16. promote_types throws sops::Error for it rather than pick a different type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string_view>
#include <type_traits>

#include "runtime/half.h"

namespace sops {

// X(cpp type, enumerator, name)
#define SOPS_FORALL_SCALAR_TYPES(X) \
  X(uint8_t, Byte, "uint8")         \
  X(int8_t, Char, "int8")           \
  X(int32_t, Int, "int32")          \
  X(int64_t, Long, "int64")         \
  X(::sops::Half, Half, "float16")  \
  X(float, Float, "float32")        \
  X(double, Double, "float64")      \
  X(bool, Bool, "bool")             \
  X(::sops::BFloat16, BFloat16, "bfloat16")

enum class ScalarType : int8_t {
#define SOPS_DEFINE_ENUMERATOR(cpp_type, name, str) name,
  SOPS_FORALL_SCALAR_TYPES(SOPS_DEFINE_ENUMERATOR)
#undef SOPS_DEFINE_ENUMERATOR
  // "No type": the dtype of nothing. Never the dtype of a tensor.
  Undefined,
};

inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);

// ATen-style short names: sops::kFloat, sops::kLong, ...
inline constexpr ScalarType kByte = ScalarType::Byte;
inline constexpr ScalarType kChar = ScalarType::Char;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kHalf = ScalarType::Half;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

// Bytes per element; 0 for Undefined.
constexpr std::size_t element_size(ScalarType t) {
  switch (t) {
#define SOPS_CASE(cpp_type, name, str) \
  case ScalarType::name:               \
    return sizeof(cpp_type);
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  return 0;
}

// PyTorch's name: "float32", "int64", "bool", ...; "undefined" for Undefined.
constexpr std::string_view to_string(ScalarType t) {
  switch (t) {
#define SOPS_CASE(cpp_type, name, str) \
  case ScalarType::name:               \
    return str;
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  return "undefined";
}

// The C++ spelling of the element type: "float", "int64_t", "sops::Half", ...
constexpr std::string_view cpp_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "uint8_t";
    case ScalarType::Char: return "int8_t";
    case ScalarType::Int: return "int32_t";
    case ScalarType::Long: return "int64_t";
    case ScalarType::Half: return "sops::Half";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Bool: return "bool";
    case ScalarType::BFloat16: return "sops::BFloat16";
    case ScalarType::Undefined: break;
  }
  return "void";
}

// Parses PyTorch's name ("float32") or the ATen enumerator ("Float"); Undefined if
// neither.
ScalarType parse_scalar_type(std::string_view name);

constexpr bool is_floating_point(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double ||
         t == ScalarType::BFloat16;
}

// 16-bit floating types, which kernels usually compute in float.
constexpr bool is_reduced_floating_point(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16;
}

constexpr bool is_integral(ScalarType t, bool include_bool) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Int ||
         t == ScalarType::Long || (include_bool && t == ScalarType::Bool);
}

constexpr bool is_signed(ScalarType t) { return t != ScalarType::Byte && t != ScalarType::Bool; }

// PyTorch's torch.promote_types. Undefined with anything gives Undefined. Throws
// sops::Error for uint8 with int8 (PyTorch's answer, int16, is not a sops type).
ScalarType promote_types(ScalarType a, ScalarType b);

// PyTorch's torch.can_cast: whether an operation whose result type is `from` may
// write into an output of type `to` (no float -> integral, no non-bool -> bool).
constexpr bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_point(from) && is_integral(to, /*include_bool=*/false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << to_string(t); }

// C++ type <-> ScalarType.
template <typename T>
struct CppTypeToScalarType {
  static constexpr ScalarType value = ScalarType::Undefined;
};
#define SOPS_SPECIALIZE_CPP_TO_SCALAR(cpp_type, name, str)   \
  template <>                                                \
  struct CppTypeToScalarType<cpp_type> {                     \
    static constexpr ScalarType value = ScalarType::name;    \
  };
SOPS_FORALL_SCALAR_TYPES(SOPS_SPECIALIZE_CPP_TO_SCALAR)
#undef SOPS_SPECIALIZE_CPP_TO_SCALAR

template <typename T>
inline constexpr ScalarType scalar_type_of = CppTypeToScalarType<std::decay_t<T>>::value;

template <ScalarType S>
struct ScalarTypeToCppType;
#define SOPS_SPECIALIZE_SCALAR_TO_CPP(cpp_type, name, str) \
  template <>                                              \
  struct ScalarTypeToCppType<ScalarType::name> {           \
    using type = cpp_type;                                 \
  };
SOPS_FORALL_SCALAR_TYPES(SOPS_SPECIALIZE_SCALAR_TO_CPP)
#undef SOPS_SPECIALIZE_SCALAR_TO_CPP

template <ScalarType S>
using cpp_type_t = typename ScalarTypeToCppType<S>::type;

}  // namespace sops
