// Dispatch on a run-time dtype to a kernel templated on the element type.
//
//   sops::visit_dtype<sops::dtypes::kAllTypes>(t.scalar_type(), "add", [&](auto tag) {
//     using scalar_t = typename decltype(tag)::type;
//     ...
//   });
//
// or, ATen-style, with scalar_t defined for the body:
//
//   SOPS_DISPATCH_ALL_TYPES(t.scalar_type(), "add", [&] { ... scalar_t ... });
//
// The lambda is instantiated only for the types in the set; any other dtype throws
// sops::Error: "add: dtype bool is not supported (supported: uint8, int8, ...)".
//
// Dtype selection (a size build's option, off by default): SOPS_SELECTED_DTYPES, a list
// of dtype names (set by the `//config:dtypes` flag through //runtime:dtype_selection),
// narrows every set to the dtypes a build keeps; a left-out dtype throws sops::Error
// saying so. A set left empty keeps its first dtype, so the code still compiles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "runtime/scalar_type.h"

namespace sops {

template <typename T>
struct TypeTag {
  using type = T;
};

namespace dtypes {

constexpr uint32_t bit(ScalarType t) { return 1u << static_cast<int>(t); }

inline constexpr uint32_t kFloatingTypes = bit(ScalarType::Float) | bit(ScalarType::Double);
inline constexpr uint32_t kReducedFloatingTypes = bit(ScalarType::Half) | bit(ScalarType::BFloat16);
inline constexpr uint32_t kIntegralTypes =
    bit(ScalarType::Byte) | bit(ScalarType::Char) | bit(ScalarType::Int) | bit(ScalarType::Long);
inline constexpr uint32_t kBoolType = bit(ScalarType::Bool);
// ATen's ALL_TYPES: the integral types, float and double.
inline constexpr uint32_t kAllTypes = kIntegralTypes | kFloatingTypes;
// Every sops dtype.
inline constexpr uint32_t kEveryType = kAllTypes | kReducedFloatingTypes | kBoolType;

constexpr bool contains(uint32_t set, ScalarType t) {
  return t != ScalarType::Undefined && ((set >> static_cast<int>(t)) & 1u) != 0;
}

constexpr ScalarType first(uint32_t set) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if ((set >> i) & 1u) return static_cast<ScalarType>(i);
  }
  return ScalarType::Undefined;
}

}  // namespace dtypes

namespace dtypes {

// The mask of a comma-separated list of dtype names ("float32,int64,bool"); an unknown
// name gives 0 for the whole list.
constexpr uint32_t mask_of_names(std::string_view names) {
  uint32_t mask = 0;
  while (!names.empty()) {
    const std::size_t comma = names.find(',');
    const std::string_view name = names.substr(0, comma);
    uint32_t found = 0;
#define SOPS_CASE(cpp_type, enumerator, str) \
  if (name == str) found = bit(ScalarType::enumerator);
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    if (found == 0) return 0;
    mask |= found;
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
  }
  return mask;
}

#define SOPS_DTYPE_STRINGIFY_(...) #__VA_ARGS__
#define SOPS_DTYPE_STRINGIFY(...) SOPS_DTYPE_STRINGIFY_(__VA_ARGS__)
#ifdef SOPS_SELECTED_DTYPES
// The dtypes a build keeps, e.g. -DSOPS_SELECTED_DTYPES=float32,int64,bool.
inline constexpr uint32_t kSelected = mask_of_names(SOPS_DTYPE_STRINGIFY(SOPS_SELECTED_DTYPES));
static_assert(kSelected != 0,
              "SOPS_SELECTED_DTYPES (--//config:dtypes) must list dtype names: "
              "uint8, int8, int32, int64, float16, float32, float64, bool, bfloat16");
#else
inline constexpr uint32_t kSelected = kEveryType;
#endif

// The dtypes of `set` that this build compiles kernels for (see dtype selection above).
constexpr uint32_t built(uint32_t set) {
  return (set & kSelected) != 0 ? (set & kSelected) : bit(first(set));
}

}  // namespace dtypes

namespace detail {
// `set`: the dtypes the kernel supports; those this build keeps are dtypes::built(set).
[[noreturn]] void throw_unsupported_dtype(ScalarType t, std::string_view name, uint32_t set);
}  // namespace detail

template <uint32_t Set, typename F>
decltype(auto) visit_dtype(ScalarType t, std::string_view name, F&& f) {
  static_assert(dtypes::first(Set) != ScalarType::Undefined, "visit_dtype needs a non-empty set");
  static_assert((Set & ~dtypes::kEveryType) == 0,
                "visit_dtype's set names a dtype that sops tensors cannot hold");
  constexpr uint32_t kBuilt = dtypes::built(Set);
  switch (t) {
#define SOPS_CASE(cpp_type, enumerator, str)                          \
  case ScalarType::enumerator:                                        \
    if constexpr (dtypes::contains(kBuilt, ScalarType::enumerator)) { \
      return std::forward<F>(f)(TypeTag<cpp_type>{});                 \
    } else {                                                          \
      break;                                                          \
    }
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
#define SOPS_CASE(size, enumerator, str) case ScalarType::enumerator:
    SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  detail::throw_unsupported_dtype(t, name, Set);
}

}  // namespace sops

#define SOPS_DISPATCH_TYPES(SET, TYPE, NAME, ...)                                         \
  ::sops::visit_dtype<(SET)>((TYPE), (NAME), [&](auto sops_dtype_tag_) {                  \
    using scalar_t = typename decltype(sops_dtype_tag_)::type;                            \
    static_assert(sizeof(scalar_t) > 0, "marks scalar_t used for bodies that ignore it"); \
    return __VA_ARGS__();                                                                 \
  })

// float, double
#define SOPS_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  SOPS_DISPATCH_TYPES(::sops::dtypes::kFloatingTypes, TYPE, NAME, __VA_ARGS__)
// float, double, Half, BFloat16
#define SOPS_DISPATCH_FLOATING_AND_REDUCED_TYPES(TYPE, NAME, ...)                             \
  SOPS_DISPATCH_TYPES(::sops::dtypes::kFloatingTypes | ::sops::dtypes::kReducedFloatingTypes, \
                      TYPE, NAME, __VA_ARGS__)
// uint8, int8, int32, int64
#define SOPS_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  SOPS_DISPATCH_TYPES(::sops::dtypes::kIntegralTypes, TYPE, NAME, __VA_ARGS__)
// the integral types, float, double
#define SOPS_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  SOPS_DISPATCH_TYPES(::sops::dtypes::kAllTypes, TYPE, NAME, __VA_ARGS__)
// the integral types, float, double, bool
#define SOPS_DISPATCH_ALL_TYPES_AND_BOOL(TYPE, NAME, ...)                                \
  SOPS_DISPATCH_TYPES(::sops::dtypes::kAllTypes | ::sops::dtypes::kBoolType, TYPE, NAME, \
                      __VA_ARGS__)
// every sops dtype
#define SOPS_DISPATCH_EVERY_TYPE(TYPE, NAME, ...) \
  SOPS_DISPATCH_TYPES(::sops::dtypes::kEveryType, TYPE, NAME, __VA_ARGS__)
