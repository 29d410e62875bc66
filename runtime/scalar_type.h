// ScalarType: the element types a tensor can hold, their sizes and names, and
// PyTorch's type promotion lattice over them.
//
// Two kinds of enumerators:
//   - tensor dtypes (SOPS_FORALL_SCALAR_TYPES): PyTorch's set minus int16, the complex
//     and the quantized types. Tensors, visit_dtype and element conversions cover them.
//   - names only (SOPS_FORALL_NAME_ONLY_SCALAR_TYPES): int16 and the complex types. They
//     exist so that code generated from native_functions.yaml compiles (defaults such
//     as `ScalarType::ComplexFloat`) and reads its dtype arguments; they have PyTorch's
//     names and element sizes, but making a tensor of one throws sops::Error, and so
//     does promote_types.
// One pair of tensor dtypes promotes, in PyTorch, to a names-only type: uint8 with int8
// gives int16. promote_types throws sops::Error for it rather than pick a different type.
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

// X(element size in bytes, enumerator, name): PyTorch's dtypes that sops tensors cannot
// hold. Their enumerators follow the tensor dtypes, so the values of those stay put.
#define SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(X) \
  X(2, Short, "int16")                        \
  X(4, ComplexHalf, "complex32")              \
  X(8, ComplexFloat, "complex64")             \
  X(16, ComplexDouble, "complex128")

enum class ScalarType : int8_t {
#define SOPS_DEFINE_ENUMERATOR(cpp_type, name, str) name,
  SOPS_FORALL_SCALAR_TYPES(SOPS_DEFINE_ENUMERATOR)
      SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_DEFINE_ENUMERATOR)
#undef SOPS_DEFINE_ENUMERATOR
  // "No type": the dtype of nothing. Never the dtype of a tensor.
  Undefined,
};

// Every enumerator but Undefined: a table indexed by static_cast<int>(dtype) has this
// many entries. The tensor dtypes are the first kNumTensorScalarTypes of them.
inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);
inline constexpr int kNumTensorScalarTypes = static_cast<int>(ScalarType::Short);

// Whether a tensor can hold elements of this dtype (false for names-only types and
// Undefined).
constexpr bool is_tensor_dtype(ScalarType t) {
  return static_cast<unsigned>(static_cast<int>(t)) < static_cast<unsigned>(kNumTensorScalarTypes);
}

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
inline constexpr ScalarType kShort = ScalarType::Short;
inline constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
inline constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
inline constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;

// Bytes per element; 0 for Undefined.
constexpr std::size_t element_size(ScalarType t) {
  switch (t) {
#define SOPS_CASE(cpp_type, name, str) \
  case ScalarType::name:               \
    return sizeof(cpp_type);
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
#define SOPS_CASE(size, name, str) \
  case ScalarType::name:           \
    return size;
    SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  return 0;
}

// PyTorch's name: "float32", "int64", "bool", "complex64", ...; "undefined" for
// Undefined.
constexpr std::string_view to_string(ScalarType t) {
  switch (t) {
#define SOPS_CASE(cpp_type, name, str) \
  case ScalarType::name:               \
    return str;
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
    SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  return "undefined";
}

// The C++ spelling of the element type: "float", "int64_t", "sops::Half", ...; "void"
// for the names-only types, which have no sops element type.
constexpr std::string_view cpp_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return "uint8_t";
    case ScalarType::Char:
      return "int8_t";
    case ScalarType::Int:
      return "int32_t";
    case ScalarType::Long:
      return "int64_t";
    case ScalarType::Half:
      return "sops::Half";
    case ScalarType::Float:
      return "float";
    case ScalarType::Double:
      return "double";
    case ScalarType::Bool:
      return "bool";
    case ScalarType::BFloat16:
      return "sops::BFloat16";
    case ScalarType::Short:
    case ScalarType::ComplexHalf:
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
    case ScalarType::Undefined:
      break;
  }
  return "void";
}

// The C++ element type's name as PyTorch's tensor.dtype() prints it in some messages
// (caffe2::TypeMeta): "float", "double", "long int", "unsigned char".
constexpr std::string_view typemeta_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return "unsigned char";
    case ScalarType::Char:
      return "signed char";
    case ScalarType::Int:
      return "int";
    case ScalarType::Long:
      return "long int";
    case ScalarType::Half:
      return "c10::Half";
    case ScalarType::Float:
      return "float";
    case ScalarType::Double:
      return "double";
    case ScalarType::Bool:
      return "bool";
    case ScalarType::BFloat16:
      return "c10::BFloat16";
    case ScalarType::Short:
      return "short int";
    case ScalarType::ComplexHalf:
      return "c10::complex<c10::Half>";
    case ScalarType::ComplexFloat:
      return "c10::complex<float>";
    case ScalarType::ComplexDouble:
      return "c10::complex<double>";
    case ScalarType::Undefined:
      break;
  }
  return "nullptr (uninitialized)";
}

// Parses PyTorch's name ("float32", "complex64") or the ATen enumerator ("Float",
// "ComplexFloat"), names-only types included; Undefined if neither.
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
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
         t == ScalarType::Int || t == ScalarType::Long || (include_bool && t == ScalarType::Bool);
}

// complex32, complex64, complex128 (names only in sops). Not floating point, as in
// PyTorch.
constexpr bool is_complex(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat ||
         t == ScalarType::ComplexDouble;
}

constexpr bool is_signed(ScalarType t) { return t != ScalarType::Byte && t != ScalarType::Bool; }

// PyTorch's torch.promote_types over the tensor dtypes. Undefined with anything gives
// Undefined. Throws sops::Error for uint8 with int8 (PyTorch's answer, int16, is not a
// tensor dtype of sops) and for any names-only type.
ScalarType promote_types(ScalarType a, ScalarType b);

// PyTorch's torch.can_cast: whether an operation whose result type is `from` may
// write into an output of type `to` (no complex -> non-complex, no float -> integral,
// no non-bool -> bool).
constexpr bool can_cast(ScalarType from, ScalarType to) {
  if (is_complex(from) && !is_complex(to)) return false;
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
#define SOPS_SPECIALIZE_CPP_TO_SCALAR(cpp_type, name, str) \
  template <>                                              \
  struct CppTypeToScalarType<cpp_type> {                   \
    static constexpr ScalarType value = ScalarType::name;  \
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
